#!/usr/bin/env bash
# CLI start-up, side by side in one run: `assay --help`, `assay validate datasets/sample`,
# `assay status jobs/sample.yaml` with no Temporal server to reach, and `assay status` of a finished
# job on a running server, each started four ways:
#   before     every command module imported up front, through tsx (the CLI before issue #13)
#   main       the compiled build of the `main` branch (BENCH_BASELINE: another ref), extracted
#              with git archive into a temporary folder that shares this checkout's node_modules
#              (BENCH_BASELINE_DIR: another checkout, with its own node_modules, instead)
#   launcher   `node scripts/assay.mjs` (this checkout's compiled build; what `pnpm assay` runs)
#   pnpm       `pnpm assay` (the launcher plus pnpm's own start-up)
# Prints hyperfine's medians (wall) and mean CPU (user+sys) per way, and the ratios.
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
SERVER_PORT=""
cleanup() {
  if [ -n "$SERVER_PORT" ]; then
    echo "import { stopTemporalServer } from '$ROOT/packages/infra/src/index.ts';
await stopTemporalServer({ root: '$ROOT', port: $SERVER_PORT });" >"$WORK/stop.mts"
    env -u TEMPORAL_ADDRESS npx tsx "$WORK/stop.mts" || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# "main": the baseline branch's own sources and build script, this checkout's installed packages;
# or BENCH_BASELINE_DIR, another checkout with its own install (when the branches' packages differ).
if [ -n "${BENCH_BASELINE_DIR:-}" ]; then
  BASE="$BENCH_BASELINE_DIR"
else
  BASE="$WORK/main"
  mkdir -p "$BASE"
  git -C "$ROOT" archive "${BENCH_BASELINE:-main}" | tar -x -C "$BASE"
  for d in . packages/* workflows activities analysis; do
    if [ -d "$ROOT/$d/node_modules" ] && [ -d "$BASE/$d" ]; then ln -s "$ROOT/$d/node_modules" "$BASE/$d/node_modules"; fi
  done
fi
(cd "$BASE" && node scripts/build-cli.mjs >/dev/null)

# A server of its own with one finished job, for `status` with a server.
SERVER_PORT="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
echo "import { startTemporalServer } from '$ROOT/packages/infra/src/index.ts';
await startTemporalServer({ root: '$ROOT', port: $SERVER_PORT, ui: false, dbFile: '$WORK/temporal.sqlite' });" >"$WORK/start.mts"
env -u TEMPORAL_ADDRESS npx tsx "$WORK/start.mts" >/dev/null
STATUS_JOB="$WORK/status-job.yaml"
cat >"$STATUS_JOB" <<YAML
schema: assay.job/v1
id: cli-bench-status
benchmark: $ROOT/datasets/sample
results: $WORK/status-results
trials: 1
tasks: [legal-nda-review]
systems: [{ id: oracle, harness: oracle }]
YAML
TEMPORAL_ADDRESS="127.0.0.1:$SERVER_PORT" node scripts/assay.mjs run "$STATUS_JOB" >/dev/null

# "before": the same main.ts, preceded by a static import of every command module, as main.ts did.
BEFORE="$WORK/main-before.ts"
for f in packages/cli/src/commands/*.ts; do echo "import '$ROOT/$f';"; done >"$BEFORE"
echo "import '$ROOT/packages/cli/src/main.ts';" >>"$BEFORE"

# The compiled build is brought up to date first, so no timed run includes a rebuild.
node scripts/build-cli.mjs

load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "machine: $(nproc) cores, load average $(load) at start"

names=(help validate status status-server)
args=("--help" "validate datasets/sample" "status jobs/sample.yaml" "status $STATUS_JOB")
for i in "${!names[@]}"; do
  a="${args[$i]}"
  addr="$TEMPORAL_ADDRESS"
  if [ "${names[$i]}" = status-server ]; then addr="127.0.0.1:$SERVER_PORT"; fi
  TEMPORAL_ADDRESS="$addr" hyperfine --style basic --runs "$RUNS" --warmup 1 --ignore-failure \
    --export-json "$WORK/${names[$i]}.json" \
    -n before "npx tsx $BEFORE $a" \
    -n main "node $BASE/scripts/assay.mjs $a" \
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
const ways = ['before', 'main', 'launcher', 'pnpm'];
const cell = (r) => `${r.median.toFixed(2)} s (cpu ${(r.user + r.system).toFixed(2)})`;
console.log(`\n| command | ${ways.join(' | ')} | before / launcher | main / launcher |`);
console.log(`| --- |${' --- |'.repeat(ways.length + 2)}`);
const shown = {
  help: 'assay --help',
  validate: 'assay validate datasets/sample',
  status: 'assay status jobs/sample.yaml (no server)',
  'status-server': 'assay status JOB (server, finished job)',
};
for (const name of names) {
  const results = JSON.parse(readFileSync(`${dir}/${name}.json`, 'utf8')).results;
  const by = Object.fromEntries(results.map((r) => [r.command, r]));
  const ratio = (a, b) => `${(by[a].median / by[b].median).toFixed(1)}x`;
  const cells = ways.map((w) => cell(by[w])).join(' | ');
  console.log(`| \`${shown[name]}\` | ${cells} | ${ratio('before', 'launcher')} | ${ratio('main', 'launcher')} |`);
}
EOF
