// A StartupBench-sized job's orchestration (issue #10 part 6): 97 tasks x 9 systems x 3 trials =
// 2,619 trials through the real job and trial workflows on a real Temporal server, with instant
// activities (bench/scale/instant-activities.ts), so what is measured is Temporal and our
// workflows alone. Prints the wall time, trials per minute, how many runs the job's
// continue-as-new chain had, and the largest history (events and bytes) of the job's runs and of
// a sample of its trials. Servers: the dev server on SQLite (`dev`) and temporal-server on
// PostgreSQL (`postgres`, needs `pnpm assay setup --temporal-server`).
//
// `--hosts 1,2` runs the job once per host count (one after another, same server): each host is a
// worker on the shared queue and one on its own `assay-host:<id>` queue, as `assay worker` runs.
//
//   npx tsx bench/scale/history-bench.ts [--server dev|postgres] [--hosts 1] [--tasks 97] [--systems 9]
//       [--trials 3] [--concurrency 64] [--batch 500]
import { mkdtempSync, rmSync, chmodSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';
import {
  freePort,
  freeProductionTemporalPort,
  startProductionTemporal,
  startTemporalServer,
  stopProductionTemporal,
  stopTemporalServer,
} from '@assay/infra';
import { TASK_QUEUE, hostQueue, jobWorkflowId, type JobInput } from '@assay/core';
import { createInstantActivities } from './instant-activities.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    server: { type: 'string', default: 'dev' },
    tasks: { type: 'string', default: '97' },
    systems: { type: 'string', default: '9' },
    trials: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '64' },
    batch: { type: 'string', default: '500' },
    sample: { type: 'string', default: '30' },
    hosts: { type: 'string', default: '1' },
  },
});

function jobInput(id: string): JobInput {
  const taskIds = Array.from({ length: Number(values.tasks) }, (_, i) => `task-${String(i + 1).padStart(3, '0')}`);
  const systems = Array.from({ length: Number(values.systems) }, (_, i) => ({
    id: `system-${i + 1}`,
    harness: i % 2 === 0 ? 'oracle' : 'nop',
  }));
  return {
    jobId: id,
    resultsDir: `/nonexistent/${id}`,
    benchmark: { id: 'scale', version: '1', root: '/nonexistent/benchmark' },
    taskIds,
    projectIds: [],
    systems,
    trials: Number(values.trials),
    concurrency: Number(values.concurrency),
    limits: { agentSeconds: 14_400, setupSeconds: 600, verifierSeconds: 900 },
    resources: { cpus: 2, memoryGb: 8 },
    judge: { mode: 'checks-only' },
    heartbeatSeconds: 30,
    batchSize: Number(values.batch),
  } as unknown as JobInput;
}

interface Server {
  address: string;
  stop: () => Promise<void>;
}

async function startServer(kind: string): Promise<Server> {
  const port = await freeProductionTemporalPort();
  const log = (l: string) => console.error(`  ${l}`);
  if (kind === 'dev') {
    const dbFile = path.join(mkdtempSync(path.join(tmpdir(), 'assay-scale-')), 'temporal.sqlite');
    const info = await startTemporalServer({ root: ROOT, port, dbFile, log });
    return { address: info.address, stop: async () => void (await stopTemporalServer({ root: ROOT, port })) };
  }
  const stateDir = mkdtempSync(path.join(tmpdir(), 'assay-scale-pg-'));
  chmodSync(stateDir, 0o755);
  const where = { root: ROOT, port, postgresPort: await freePort(), stateDir };
  const info = await startProductionTemporal({ ...where, log });
  return {
    address: info.address,
    stop: async () => {
      await stopProductionTemporal(where);
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** Events and bytes of one run's history. */
async function historyOf(client: Client, workflowId: string, runId: string) {
  const d = await client.workflow.getHandle(workflowId, runId).describe();
  const raw = d.raw.workflowExecutionInfo;
  return { events: Number(raw?.historyLength ?? 0), bytes: Number(raw?.historySizeBytes ?? 0) };
}

async function largest(client: Client, query: string, limit: number) {
  let max = { events: 0, bytes: 0, runs: 0 };
  for await (const w of client.workflow.list({ query })) {
    const h = await historyOf(client, w.workflowId, w.runId);
    max = { events: Math.max(max.events, h.events), bytes: Math.max(max.bytes, h.bytes), runs: max.runs + 1 };
    if (max.runs >= limit) break;
  }
  return max;
}

interface HostWorkers {
  hosts: { id: string; prepared: () => number }[];
  running: Promise<unknown>;
  shutdown: () => Promise<void>;
}

/** Per host: a worker on the shared queue (workflows, prepares) and one on its own queue, as `assay worker` runs. */
async function startHosts(address: string, count: number, recorded: Set<string>): Promise<HostWorkers> {
  const connections: NativeConnection[] = [];
  const workflowsPath = path.join(ROOT, 'workflows/src/index.ts');
  const workflowBundle = await bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') });
  const hosts: HostWorkers['hosts'] = [];
  const workers: Worker[] = [];
  for (let i = 1; i <= count; i++) {
    const id = `bench-${i}`;
    const instant = createInstantActivities(id, recorded);
    hosts.push({ id, prepared: instant.prepared });
    // A connection per host: the SDK allows one worker per task queue on a connection.
    const connection = await NativeConnection.connect({ address });
    connections.push(connection);
    const common = { connection, activities: instant.activities, maxConcurrentActivityTaskExecutions: 64 };
    workers.push(await Worker.create({ ...common, taskQueue: TASK_QUEUE, workflowBundle }));
    workers.push(await Worker.create({ ...common, taskQueue: hostQueue(id) }));
  }
  const running = Promise.all(workers.map((w) => w.run()));
  return {
    hosts,
    running,
    shutdown: async () => {
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
      await running.catch(() => undefined);
      for (const c of connections) await c.close();
    },
  };
}

async function runJob(server: Server, client: Client, hostCount: number): Promise<string> {
  const jobId = `scale-${hostCount}h-${Date.now().toString(36)}`;
  const input = jobInput(jobId);
  const total = input.taskIds.length * input.systems.length * input.trials;
  const recorded = new Set<string>();
  const hosts = await startHosts(server.address, hostCount, recorded);
  const loadBefore = loadavg()[0]!;
  try {
    const started = Date.now();
    const handle = await client.workflow.start('jobWorkflow', {
      workflowId: jobWorkflowId(jobId),
      taskQueue: TASK_QUEUE,
      args: [input],
    });
    // A worker that fails stops polling; say so rather than wait for the job forever.
    const stopped = hosts.running.then(() => Promise.reject(new Error('a worker stopped before the job finished')));
    await Promise.race([handle.result(), stopped]);
    const wall = (Date.now() - started) / 1000;
    const job = await largest(client, `WorkflowId = '${jobWorkflowId(jobId)}'`, 1_000);
    const query = `AssayJob = '${jobId}' AND WorkflowType = 'trialWorkflow'`;
    const trials = await largest(client, query, Number(values.sample));
    const spread = hosts.hosts.map((h) => `${h.id} ${h.prepared()}`).join(', ');
    return [
      `server ${values.server}, ${hostCount} host(s), ${total} trials (${input.taskIds.length} tasks x ` +
        `${input.systems.length} systems x ${input.trials}), concurrency ${input.concurrency}, batch ` +
        `${input.batchSize}; ${cpus().length} cores, load ${loadBefore.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)}`,
      `  recorded ${recorded.size} of ${total}; prepared per host: ${spread}`,
      `  wall ${wall.toFixed(1)} s, ${((total / wall) * 60).toFixed(0)} trials/min`,
      `  job: ${job.runs} runs (continue-as-new), largest history ${job.events} events, ${(job.bytes / 1024).toFixed(0)} KiB`,
      `  trials (${trials.runs} sampled): largest history ${trials.events} events, ${(trials.bytes / 1024).toFixed(1)} KiB`,
    ].join('\n');
  } finally {
    await hosts.shutdown();
  }
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger((process.env.ASSAY_WORKER_LOG_LEVEL ?? 'WARN') as 'WARN') });
  const server = await startServer(values.server!);
  const client = new Client({ connection: await Connection.connect({ address: server.address }) });
  try {
    // One job per host count, one after another on the same server: the ratios are within one run.
    for (const count of values.hosts!.split(',').map(Number)) console.log(await runJob(server, client, count));
  } finally {
    await client.connection.close();
    await server.stop();
  }
}

await main();
