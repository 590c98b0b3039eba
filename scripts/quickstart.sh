#!/usr/bin/env bash
# README command 1: set everything up on embedded defaults and run the sample job.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v pnpm >/dev/null 2>&1; then
  echo "== installing pnpm 9.15.9 (npm install -g)"
  npm install -g pnpm@9.15.9
fi
echo "== pnpm install"
pnpm install --frozen-lockfile
echo "== assay setup (Chromium too: the tests open the HTML report in it)"
pnpm assay setup --chromium
echo "== assay run jobs/sample.yaml"
pnpm assay run jobs/sample.yaml "$@"
