#!/usr/bin/env bash
# CLI start-up, side by side in one run: `assay --help`, `assay validate datasets/sample` and
# `assay status jobs/sample.yaml` with no Temporal server to reach, each started four ways:
#   before     every command module imported up front, through tsx (the CLI before issue #13)
#   tsx        `npx tsx packages/cli/src/main.ts` as it is now (lazy imports, still transpiled)
#   launcher   `node scripts/assay.mjs` (the compiled build; what `pnpm assay` runs)
#   pnpm       `pnpm assay` (the launcher plus pnpm's own start-up)
# Prints hyperfine's medians (wall) and mean CPU (user+sys) per way, and the ratio before/launcher.
#
#   bash bench/cli/run-bench.sh [RUNS]        (default 5 runs per command and way, after 1 warm-up)
# Needs hyperfine (Debian: apt-get install -y hyperfine).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
RUNS="${1:-5}"
# Nothing listens on port 1: the status command's "server unreachable" path, whatever runs on 7233.
export TEMPORAL_ADDRESS="${BENCH_TEMPORAL_ADDRESS:-127.0.0.1:1}"
cd "$ROOT"
command -v hyperfine >/dev/null || { echo "run-bench: hyperfine is missing (apt-get install -y hyperfine)" >&2; exit 1; }

WORK="$(mktemp -d /tmp/assay-cli-bench.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

# "before": the same main.ts, preceded by a static import of every command module, as main.ts did.
BEFORE="$WORK/main-before.ts"
for f in packages/cli/src/commands/*.ts; do echo "import '$ROOT/$f';"; done >"$BEFORE"
echo "import '$ROOT/packages/cli/src/main.ts';" >>"$BEFORE"

# The compiled build is brought up to date first, so no timed run includes a rebuild.
node scripts/build-cli.mjs

load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "machine: $(nproc) cores, load average $(load) at start"

names=(help validate status)
args=("--help" "validate datasets/sample" "status jobs/sample.yaml")
for i in "${!names[@]}"; do
  a="${args[$i]}"
  hyperfine --style basic --runs "$RUNS" --warmup 1 --ignore-failure --export-json "$WORK/${names[$i]}.json" \
    -n before "npx tsx $BEFORE $a" \
    -n tsx "npx tsx packages/cli/src/main.ts $a" \
    -n launcher "node scripts/assay.mjs $a" \
    -n pnpm "pnpm -s assay $a" >"$WORK/${names[$i]}.log" 2>&1 || {
    cat "$WORK/${names[$i]}.log" >&2
    exit 1
  }
done
echo "load average $(load) at the end; $RUNS runs each after 1 warm-up"

node --input-type=module - "$WORK" "${names[@]}" <<'EOF'
import { readFileSync } from 'node:fs';
const [dir, ...names] = process.argv.slice(2);
const ways = ['before', 'tsx', 'launcher', 'pnpm'];
const cell = (r) => `${r.median.toFixed(2)} s (cpu ${(r.user + r.system).toFixed(2)})`;
console.log(`\n| command | ${ways.join(' | ')} | before / launcher | before / pnpm |`);
console.log(`| --- |${' --- |'.repeat(ways.length + 2)}`);
const shown = { help: 'assay --help', validate: 'assay validate datasets/sample', status: 'assay status jobs/sample.yaml' };
for (const name of names) {
  const results = JSON.parse(readFileSync(`${dir}/${name}.json`, 'utf8')).results;
  const by = Object.fromEntries(results.map((r) => [r.command, r]));
  const ratio = (way) => `${(by.before.median / by[way].median).toFixed(1)}x`;
  console.log(`| \`${shown[name]}\` | ${ways.map((w) => cell(by[w])).join(' | ')} | ${ratio('launcher')} | ${ratio('pnpm')} |`);
}
EOF
