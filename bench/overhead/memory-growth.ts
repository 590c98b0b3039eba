// A worker's memory over a long run (issue #14 part 3): a standalone `assay worker` runs one job
// of the trivial task (oracle + nop, N trials in all, concurrency C) submitted with
// `assay run --detach`; its RSS, and its tree's (the warm parser pool), are sampled every 0.5 s
// and printed when 100, 300, 500... trials are recorded.
//
//   npx tsx bench/overhead/memory-growth.ts [--trials 500] [--concurrency 4] [--marks 100,300,500] [--keep]
// The worker runs with the Node flags of `pnpm assay` (package.json); BENCH_WORKER_NODE_OPTIONS adds
// NODE_OPTIONS for the worker process only (e.g. V8 heap flags to compare); BENCH_WORKER_NODE_ARGS
// replaces the flags themselves (e.g. `--max-semi-space-size=16 --trace-gc`). The worker's output goes to
// worker.log in the work folder, removed at the end unless --keep.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, startTemporalServer, stopTemporalServer } from '@assay/infra';
import { TASK_ID, writeAssayBenchmark } from '../harbor/generate-tasks.js';
import { processRssMb, sampleTree } from '../harbor/measure-process.js';
import { assayNodeArgs } from '../cli/assay-node-args.js';
import { removeWork } from '../remove-work.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '4' },
    marks: { type: 'string', default: '100,300,500' },
    keep: { type: 'boolean', default: false },
  },
});
const total = Number(values.trials);
const marks = values.marks!.split(',').map(Number);

function recorded(results: string): number {
  let n = 0;
  for (const system of ['oracle', 'nop']) {
    const dir = path.join(results, 'trials', system, TASK_ID);
    if (!existsSync(dir)) continue;
    for (const t of readdirSync(dir)) if (existsSync(path.join(dir, t, 'record.json'))) n++;
  }
  return n;
}

/** CPU seconds (user + sys) a process has used, from /proc. */
function cpuSeconds(pid: number): number {
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const rest = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(rest[11]) + Number(rest[12])) / 100;
}

async function main(): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), 'assay-memory-'));
  const benchmark = writeAssayBenchmark(path.join(work, 'benchmark'));
  const results = path.join(work, 'results');
  const jobFile = path.join(work, 'job.yaml');
  const perSystem = Math.ceil(total / 2);
  writeFileSync(
    jobFile,
    [
      'schema: assay.job/v1',
      'id: memory-growth',
      `benchmark: ${benchmark}`,
      `trials: ${perSystem}`,
      `concurrency: ${values.concurrency}`,
      'systems: [{ id: oracle, harness: oracle }, { id: nop, harness: nop }]',
      `results: ${results}`,
      '',
    ].join('\n'),
  );
  execFileSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: ROOT, stdio: 'ignore' });
  const port = await freePort();
  delete process.env.TEMPORAL_ADDRESS;
  const server = await startTemporalServer({ root: ROOT, port, dbFile: path.join(work, 't.sqlite'), ui: false });
  const env = { ...process.env, TEMPORAL_ADDRESS: server.address };
  const cli = path.join(ROOT, 'scripts/assay.mjs');
  const workerEnv = { ...env, NODE_OPTIONS: process.env.BENCH_WORKER_NODE_OPTIONS ?? '' };
  const nodeArgs = process.env.BENCH_WORKER_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? assayNodeArgs(ROOT);
  const log = openSync(path.join(work, 'worker.log'), 'w');
  const worker = spawn(process.execPath, [...nodeArgs, cli, 'worker'], {
    cwd: ROOT,
    env: workerEnv,
    stdio: ['ignore', log, log],
  });
  const pid = worker.pid ?? 0;
  const flags = `; worker node flags [${nodeArgs.join(' ')}] NODE_OPTIONS [${workerEnv.NODE_OPTIONS}]`;
  console.log(
    `load average ${loadavg().map((l) => l.toFixed(1))} at start; ${2 * perSystem} trials; work ${work}${flags}`,
  );
  console.log(
    '| trials recorded | worker RSS MB | worker peak so far MB | tree RSS MB (pool) | processes | worker CPU s | s |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  const t0 = Date.now();
  try {
    execFileSync(process.execPath, [cli, 'run', jobFile, '--no-worker', '--detach'], {
      cwd: ROOT,
      env,
      stdio: 'ignore',
    });
    let peak = 0;
    const pending = [...marks];
    while (pending.length > 0) {
      await new Promise((r) => setTimeout(r, 500));
      peak = Math.max(peak, processRssMb(pid));
      const n = recorded(results);
      if (n >= pending[0]!) {
        const tree = sampleTree(pid);
        const line = [n, processRssMb(pid), peak, tree.treeKb / 1024].map((x) => x.toFixed(0));
        const cpu = cpuSeconds(pid).toFixed(1);
        console.log(`| ${line.join(' | ')} | ${tree.count} | ${cpu} | ${((Date.now() - t0) / 1000).toFixed(0)} |`);
        pending.shift();
      }
      if (worker.exitCode !== null) throw new Error(`worker exited (${worker.exitCode})`);
    }
  } finally {
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
    await stopTemporalServer({ root: ROOT, port });
  }
  console.log(`load average ${loadavg().map((l) => l.toFixed(1))} at the end`);
  removeWork(work, values.keep!);
}

await main();
