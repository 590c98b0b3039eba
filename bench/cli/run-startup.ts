// `assay run` start-up on a ready machine: from spawning the CLI to the first trial workflow started
// (its start time on the Temporal server), phase by phase (ASSAY_TIMINGS=1), interleaved:
//   built    the workflow bundle built by the worker on every start (as before issue #13's cache;
//            ASSAY_WORKFLOW_BUNDLE_CACHE=0)
//   cached   the workflow bundle read from .assay/cache/workflow-bundles/ (built once beforehand)
// A Temporal dev server of its own on a free port (TEMPORAL_ADDRESS, so the CLI does not manage it),
// one oracle trial per run, a new job id each time.
//
//   npx tsx bench/cli/run-startup.ts [RUNS]     (default 3 runs per way)
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { stringify } from 'yaml';
import { startTemporalServer, stopTemporalServer } from '../../packages/infra/src/index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RUNS = Number(process.argv[2] ?? 3);
const WAYS = { built: { ASSAY_WORKFLOW_BUNDLE_CACHE: '0' }, cached: {} } as const;

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

/** Runs the CLI to the end; returns its phases (seconds) and when it was spawned. */
function runCli(file: string, address: string, env: Record<string, string>) {
  const spawnedAt = Date.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/assay.mjs'), 'run', file], {
    cwd: ROOT,
    env: { ...process.env, TEMPORAL_ADDRESS: address, ASSAY_TIMINGS: '1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise<{ spawnedAt: number; phases: Record<string, number> }>((resolve, reject) =>
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`assay run exited ${code}: ${stderr}`));
      const phases: Record<string, number> = {};
      for (const m of stderr.matchAll(/^timing: (\S+) ([\d.]+) s$/gm)) phases[m[1]!] = Number(m[2]);
      resolve({ spawnedAt, phases });
    }),
  );
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
const rows: { way: string; firstTrial: number; phases: Record<string, number> }[] = [];
try {
  // The bundle cache filled once, outside the timed runs (as after the first run on a machine).
  await runCli(writeJob(`startup-warm-${Date.now()}`), server.address, {});
  for (let i = 0; i < RUNS; i++) {
    for (const [way, env] of Object.entries(WAYS)) {
      const id = `startup-${way}-${Date.now()}`;
      const { spawnedAt, phases } = await runCli(writeJob(id), server.address, env);
      const trial = await client.workflow.getHandle(`assay-trial:${id}:oracle:legal-nda-review:1`).describe();
      rows.push({ way, firstTrial: (trial.startTime.getTime() - spawnedAt) / 1000, phases });
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
console.log(`\n| way | to first trial started | ${phaseNames.join(' | ')} |`);
console.log(`| --- | --- |${' --- |'.repeat(phaseNames.length)}`);
for (const way of Object.keys(WAYS)) {
  const mine = rows.filter((r) => r.way === way);
  const cells = phaseNames.map((p) => `${median(mine.map((r) => r.phases[p] ?? 0)).toFixed(2)}`);
  console.log(`| ${way} | ${median(mine.map((r) => r.firstTrial)).toFixed(2)} s | ${cells.join(' | ')} |`);
}
const ratio =
  median(rows.filter((r) => r.way === 'built').map((r) => r.firstTrial)) /
  median(rows.filter((r) => r.way === 'cached').map((r) => r.firstTrial));
console.log(`\nbuilt / cached (to first trial): ${ratio.toFixed(1)}x; medians of ${RUNS} runs per way, seconds`);
