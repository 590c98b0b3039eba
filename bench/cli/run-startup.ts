// `assay run` start-up on a ready machine: from spawning the CLI to the first trial workflow started
// (its start time on the Temporal server), phase by phase (ASSAY_TIMINGS=1), interleaved:
//   built    the workflow bundle built by the worker on every start (as before issue #13's cache;
//            ASSAY_WORKFLOW_BUNDLE_CACHE=0)
//   cached   the workflow bundle read from .assay/cache/workflow-bundles/ (built once beforehand)
//   cached-no-flags  `cached` without the Node flags of package.json's `assay` script
//   base     `cached` in another checkout (BENCH_BASELINE_DIR, e.g. `git worktree add --detach
//            /tmp/startup-base main` with its own `pnpm install`), when that variable is set
// A Temporal dev server of its own on a free port (TEMPORAL_ADDRESS, so the CLI does not manage it),
// one oracle trial per run, a new job id each time. Also prints the CLI's CPU (user + sys, /proc) when
// the trial workflow first exists, and the time between the last phase mark and the trial's start.
//
//   npx tsx bench/cli/run-startup.ts [RUNS]     (default 3 runs per way)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { stringify } from 'yaml';
import { startTemporalServer, stopTemporalServer } from '../../packages/infra/src/index.js';
import { assayNodeArgs } from './assay-node-args.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RUNS = Number(process.argv[2] ?? 3);
const BASELINE = process.env.BENCH_BASELINE_DIR ? path.resolve(process.env.BENCH_BASELINE_DIR) : null;
interface Way {
  root: string;
  env: Record<string, string>;
  /** Node flags instead of those of the checkout's `pnpm assay`. */
  nodeArgs?: string[];
}
const WAYS: Record<string, Way> = {
  built: { root: ROOT, env: { ASSAY_WORKFLOW_BUNDLE_CACHE: '0' } },
  cached: { root: ROOT, env: {} },
  // The same without the Node flags of `pnpm assay` (V8's default heap sizes), when they differ.
  ...(assayNodeArgs(ROOT).length > 0 ? { 'cached-no-flags': { root: ROOT, env: {}, nodeArgs: [] } } : {}),
  ...(BASELINE ? { base: { root: BASELINE, env: {} } } : {}),
};

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function writeJob(id: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-startup-'));
  const file = path.join(dir, 'job.yaml');
  const job = {
    schema: 'assay.job/v1',
    id,
    benchmark: path.join(ROOT, 'datasets/sample'),
    results: path.join(dir, 'results'),
    trials: 1,
    tasks: ['legal-nda-review'],
    systems: [{ id: 'oracle', harness: 'oracle' }],
  };
  writeFileSync(file, stringify(job));
  return file;
}

/** CPU seconds (user + sys, all threads) the process has used, from /proc; null once it is gone. */
function cpuSeconds(pid: number): number | null {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const rest = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(rest[11]) + Number(rest[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * The CLI's CPU when the trial workflow first exists on the server (polled every 200 ms, so it
 * over-counts by up to one poll's CPU).
 */
async function cpuToFirstTrial(pid: number, trialId: string, exited: () => boolean): Promise<number> {
  let cpu = 0;
  for (;;) {
    cpu = cpuSeconds(pid) ?? cpu;
    const found = await client.workflow
      .getHandle(trialId)
      .describe()
      .then(
        () => true,
        () => false,
      );
    if (found || exited()) return cpu;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Runs the CLI to the end; returns its phases (seconds), when it was spawned and its CPU to the first trial. */
async function runCli(file: string, address: string, way: Way, trialId?: string) {
  const spawnedAt = Date.now();
  // With the Node flags of that checkout's `pnpm assay`.
  const args = [...(way.nodeArgs ?? assayNodeArgs(way.root)), path.join(way.root, 'scripts/assay.mjs'), 'run', file];
  const child = spawn(process.execPath, args, {
    cwd: way.root,
    env: { ...process.env, TEMPORAL_ADDRESS: address, ASSAY_TIMINGS: '1', ...way.env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  let exited = false;
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<Record<string, number>>((resolve, reject) =>
    child.on('exit', (code) => {
      exited = true;
      if (code !== 0) return reject(new Error(`assay run exited ${code}: ${stderr}`));
      const phases: Record<string, number> = {};
      for (const m of stderr.matchAll(/^timing: (\S+) ([\d.]+) s$/gm)) phases[m[1]!] = Number(m[2]);
      resolve(phases);
    }),
  );
  const cpu = trialId && child.pid ? await cpuToFirstTrial(child.pid, trialId, () => exited) : NaN;
  return { spawnedAt, phases: await done, cpu };
}

const port = await freePort();
delete process.env.TEMPORAL_ADDRESS;
const server = await startTemporalServer({
  root: ROOT,
  port,
  ui: false,
  dbFile: path.join(mkdtempSync(path.join(os.tmpdir(), 'assay-startup-db-')), 't.sqlite'),
});
const connection = await Connection.connect({ address: server.address });
const client = new Client({ connection });
const rows: { way: string; firstTrial: number; cpu: number; phases: Record<string, number> }[] = [];
try {
  // The bundle cache filled once, outside the timed runs (as after the first run on a machine).
  // (and each checkout's CLI build brought up to date).
  for (const way of new Set(Object.values(WAYS).map((w) => w.root)))
    await runCli(writeJob(`startup-warm-${Date.now()}`), server.address, { root: way, env: {} });
  for (let i = 0; i < RUNS; i++) {
    for (const [way, how] of Object.entries(WAYS)) {
      const id = `startup-${way}-${Date.now()}`;
      const trialId = `assay-trial:${id}:oracle:legal-nda-review:1`;
      const { spawnedAt, phases, cpu } = await runCli(writeJob(id), server.address, how, trialId);
      const trial = await client.workflow.getHandle(trialId).describe();
      rows.push({ way, firstTrial: (trial.startTime.getTime() - spawnedAt) / 1000, cpu, phases });
    }
  }
} finally {
  await connection.close();
  await stopTemporalServer({ root: ROOT, port });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const phaseNames = [...new Set(rows.flatMap((r) => Object.keys(r.phases)))];
console.log(
  `machine: ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} at the end`,
);
// Marks are cumulative from the process start: what is left is the worker's first workflow task,
// the job's listFinishedTrials activity and the child's start.
const afterMarks = (r: (typeof rows)[number]) => r.firstTrial - Object.values(r.phases).reduce((a, b) => a + b, 0);
console.log(`\n| way | to first trial started | CPU to it | ${phaseNames.join(' | ')} | last mark to first trial |`);
console.log(`| --- | --- | --- |${' --- |'.repeat(phaseNames.length + 1)}`);
for (const way of Object.keys(WAYS)) {
  const mine = rows.filter((r) => r.way === way);
  const cells = phaseNames.map((p) => `${median(mine.map((r) => r.phases[p] ?? 0)).toFixed(2)}`);
  const rest = median(mine.map(afterMarks)).toFixed(2);
  const first = `${median(mine.map((r) => r.firstTrial)).toFixed(2)} s | ${median(mine.map((r) => r.cpu)).toFixed(2)} s`;
  console.log(`| ${way} | ${first} | ${cells.join(' | ')} | ${rest} |`);
}
const firstTrial = (way: string) => median(rows.filter((r) => r.way === way).map((r) => r.firstTrial));
const ratios = [`built / cached ${(firstTrial('built') / firstTrial('cached')).toFixed(1)}x`];
if (BASELINE) ratios.push(`base / cached ${(firstTrial('base') / firstTrial('cached')).toFixed(1)}x`);
console.log(`\nto first trial: ${ratios.join(', ')}; medians of ${RUNS} runs per way, seconds`);
