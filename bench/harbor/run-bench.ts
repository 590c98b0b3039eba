// Side by side with Harbor 0.20 in one run (issue #14): the same trivial task, oracle + nop x N
// trials at concurrency C, rounds interleaved (Harbor, assay[, baseline checkout]; the order
// rotates each round), medians over rounds, printed as one table of ratios against Harbor.
// Run through bench/harbor/run-bench.sh (it installs Harbor first).
//
//   npx tsx bench/harbor/run-bench.ts [--trials 12] [--concurrency 4] [--rounds 3]
//       [--baseline DIR (another assay checkout, e.g. main, as a third column)] [--floor] [--only SIDES]
//       [--out FILE.json] [--keep (the work folder; removed at the end otherwise)]
// --floor adds the Docker floor (docker-floor.ts: the same agent containers with nothing of ours
// around them), so a trial's time above what the engine itself takes is read off the same run.
// --only takes a comma-separated list of harbor, assay, floor.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { baseImageTag, freePort, startTemporalServer, stopTemporalServer } from '@assay/infra';
import { runAssayRound, type AssaySetup } from './assay-side.js';
import { writeAssayBenchmark, writeHarborDataset } from './generate-tasks.js';
import { runFloorRound, type FloorSetup } from './floor-side.js';
import { runHarborRound, type SideResult } from './harbor-side.js';
import { printAboveFloor, printPhases, printTable } from './print-table.js';
import { removeWork } from '../remove-work.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '12' },
    concurrency: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '3' },
    baseline: { type: 'string' },
    only: { type: 'string' },
    floor: { type: 'boolean', default: false },
    out: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const opts = { trials: Number(values.trials), concurrency: Number(values.concurrency) };
const rounds = Number(values.rounds);
const only = values.only?.split(',').map((s) => s.trim());
const wanted = (side: 'harbor' | 'assay' | 'floor'): boolean =>
  only ? only.includes(side) : side !== 'floor' || values.floor!;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function main(): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), 'assay-harbor-bench-'));
  const benchmarkDir = writeAssayBenchmark(path.join(work, 'assay-benchmark'));
  const datasetDir = writeHarborDataset(path.join(work, 'harbor-dataset'), baseImageTag());
  console.log(`machine: ${cpus().length} cores, load average ${load()} at start; work in ${work}`);
  console.log(`${opts.trials} trials x (oracle, nop), concurrency ${opts.concurrency}, ${rounds} round(s)`);

  // A ready machine: the Temporal dev server runs before anything is timed.
  const port = await freePort();
  const dbFile = path.join(work, 'temporal.sqlite');
  delete process.env.TEMPORAL_ADDRESS;
  const server = await startTemporalServer({ root: ROOT, port, dbFile, ui: false });
  const temporal = { address: server.address, pid: server.pid ?? 0 };
  const sides: Array<{ name: string; run: (round: number) => Promise<SideResult> }> = [];
  if (wanted('harbor')) {
    const harbor = {
      root: ROOT,
      venv: path.join(ROOT, '.assay/harbor-venv'),
      dockerConfig: path.join(ROOT, '.assay/harbor-docker'),
      datasetDir,
      workDir: work,
    };
    sides.push({ name: 'harbor', run: (r) => runHarborRound(harbor, r, opts) });
  }
  if (wanted('assay')) {
    const ours: AssaySetup = { root: ROOT, label: 'branch', benchmarkDir, workDir: work, temporal };
    sides.push({ name: 'assay (branch)', run: (r) => runAssayRound(ours, r, opts) });
    if (values.baseline) {
      const base: AssaySetup = { ...ours, root: path.resolve(values.baseline), label: 'baseline' };
      // Its CLI build brought up to date before anything is timed.
      execFileSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: base.root, stdio: 'ignore' });
      sides.push({ name: 'assay (baseline)', run: (r) => runAssayRound(base, r, opts) });
    }
  }
  if (wanted('floor')) {
    const floor: FloorSetup = { root: ROOT, benchmarkDir, workDir: work };
    sides.push({ name: 'docker floor', run: (r) => runFloorRound(floor, r, opts) });
  }
  const results = new Map<string, SideResult[]>(sides.map((s) => [s.name, []]));
  try {
    for (let r = 1; r <= rounds; r++) {
      // Rotate the order so no side always runs first (cold caches) or last.
      const order = sides.map((_, i) => sides[(i + r - 1) % sides.length]!);
      for (const side of order) {
        const res = await side.run(r);
        results.get(side.name)!.push(res);
        const line = `round ${r} ${side.name}: wall ${res.measured.wallSeconds.toFixed(1)} s, load ${load()}`;
        console.log(res.problems.length > 0 ? `${line}; PROBLEMS: ${res.problems.join('; ')}` : line);
      }
    }
  } finally {
    await stopTemporalServer({ root: ROOT, port });
  }
  console.log(`load average ${load()} at the end\n`);
  const table = printTable(results, opts);
  const phases = printPhases(results);
  const floor = printAboveFloor(results);
  console.log(`${table}\n\n${floor ? `${floor}\n\n` : ''}${phases}`);
  if (values.out) {
    mkdirSync(path.dirname(values.out), { recursive: true });
    writeFileSync(values.out, JSON.stringify(Object.fromEntries(results), null, 2));
  }
  removeWork(work, values.keep!);
}

await main();
