// The worker: the only place that builds real clients (Temporal, Docker,
// evidence, judge) and hands them to the activity factories.
import { createRequire } from 'node:module';
import path from 'node:path';
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import {
  DefaultLogger,
  NativeConnection,
  Runtime,
  Worker,
  bundleWorkflowCode,
  type LogLevel,
} from '@temporalio/worker';
import Docker from 'dockerode';
import {
  type HostIdentity,
  type TemporalServerRef,
  createJobActivities,
  createProjectActivities,
  createTrialActivities,
  heartbeating,
  parseFaultDelays,
  reapContainers,
  settleContainerRemovals,
  settleWorkVolumeReleases,
} from '@assay/activities';
import { ParserPool } from '@assay/evidence';
import { createJudgeBatchClient, createJudgeModel } from '@assay/judge';
import type { TemporalConnectionOptions } from '@assay/infra/temporal-connection';
import { hostQueue, type ThrottleReport } from '@assay/core';
import { TASK_QUEUE, jobWorkflowId, throttledSignal } from '@assay/workflows/definitions';
import { createEvidenceTools, sharedParserPool } from './evidence-tools.js';
import { createJudgeFactory } from './create-judge-factory.js';
import { createJudgeBatchActivities } from './judge-batch-activities.js';
import { cachedWorkflowBundle } from './cached-workflow-bundle.js';
import { resolveWorkerHost } from './worker-host.js';
import { readAssayVersion } from './read-assay-version.js';
import { repoRoot } from '../repo-root.js';

const require = createRequire(import.meta.url);

export interface WorkerOptions {
  address: string;
  namespace: string;
  /** TLS, API key and gRPC metadata from the Temporal settings (temporalTarget()); default: `address` in plain text. */
  connection?: TemporalConnectionOptions;
  images: { scriptedAgent: string };
  log: (line: string) => void;
  /** Agent activities running at once on this worker. */
  maxConcurrentActivities?: number;
  /** Warm evidence parser processes (default ASSAY_PARSER_POOL_SIZE, else from the machine's memory and cores). */
  parserPoolSize?: number;
  /** This worker's host id and work root (default: ASSAY_HOST_ID / ASSAY_WORK_ROOT, else the machine's name). */
  host?: HostIdentity;
  /** The workflow bundle, when the caller started finding it earlier (`assay run`, while it reads the job). */
  bundle?: Promise<WorkflowBundleOption>;
}

export type WorkflowBundleOption = { codePath: string } | { code: string };

export interface RunningWorker {
  /** The worker on the shared queue (workflows, and whatever any host may run). */
  worker: Worker;
  host: HostIdentity;
  /** Resolves when the worker has shut down. */
  done: Promise<void>;
  shutdown: () => Promise<void>;
}

let runtimeInstalled = false;

/** The SDK's own logs (bundling, state changes) only at ASSAY_WORKER_LOG_LEVEL and above (default WARN). */
function installRuntimeOnce(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const level = (process.env.ASSAY_WORKER_LOG_LEVEL ?? 'WARN') as LogLevel;
  try {
    Runtime.install({ logger: new DefaultLogger(level) });
  } catch {
    // Already installed by the embedding process: keep its logger.
  }
}

/** The workflow bundle, from the cache when no input changed (ASSAY_WORKFLOW_BUNDLE_CACHE=0: always built). */
export async function workflowBundle(): Promise<WorkflowBundleOption> {
  const workflowsPath = require.resolve('@assay/workflows');
  // @assay/core (pure: no module state) and its zod schemas load once into the reusable V8 context,
  // shared by every workflow, instead of being evaluated again in each new workflow run.
  const bundlerOptions = { ignoreModules: [], preloadModules: ['@assay/core/pure'] };
  const build = () => bundleWorkflowCode({ workflowsPath, ...bundlerOptions });
  if (process.env.ASSAY_WORKFLOW_BUNDLE_CACHE === '0') return build();
  // workflows/src/index.ts -> the package folder.
  const workflowsDir = path.dirname(path.dirname(workflowsPath));
  const cached = await cachedWorkflowBundle({ root: repoRoot(), workflowsDir, bundlerOptions, build });
  return { codePath: cached.codePath };
}

export async function startWorker(opts: WorkerOptions): Promise<RunningWorker> {
  installRuntimeOnce();
  const host = opts.host ?? resolveWorkerHost({});
  const docker = new Docker();
  const connectionOptions = opts.connection ?? { address: opts.address };
  // The two connections and the bundle (its key hashes the workflow sources) do not wait on each other.
  const bundle = opts.bundle ?? workflowBundle();
  bundle.catch(() => undefined);
  const connections = await connectBoth(connectionOptions);
  const client = new Client({ connection: connections.client, namespace: opts.namespace });
  // Only containers labelled with this server and namespace: another server's share the engine.
  const temporalServer = { address: connectionOptions.address, namespace: opts.namespace };
  // Reaping overlaps the workers' creation; nothing runs on them before both are done.
  const reaping = reapStaleContainers(docker, temporalServer, client, opts.log);
  const parsers = opts.parserPoolSize ? new ParserPool({ size: opts.parserPoolSize }) : sharedParserPool();
  const activities = createActivities(opts, { docker, temporalServer, client, parsers, host });
  const created = createWorkers(connections.native, opts, bundle, activities, host);
  const workers = await awaitStartUp(created, reaping, connections);
  const done = runAll(workers).finally(() => releaseAll(parsers, connections));
  return {
    worker: workers[0],
    host,
    done,
    shutdown: async () => {
      shutdownRunning(workers);
      await done;
    },
  };
}

interface Connections {
  /** The workers' connection. */
  native: NativeConnection;
  /** The client's (reaping's describes, throttle signals). */
  client: Connection;
}

/** Both connections at once; the workers' is closed again when the client's fails. */
async function connectBoth(options: TemporalConnectionOptions): Promise<Connections> {
  const nativeConnecting = NativeConnection.connect(options);
  nativeConnecting.catch(() => undefined);
  const client = await Connection.connect(options).catch(async (err: unknown) => {
    await nativeConnecting.then((c) => c.close()).catch(() => undefined);
    throw err;
  });
  return { native: await nativeConnecting, client };
}

function reapStaleContainers(
  docker: Docker,
  temporalServer: TemporalServerRef,
  client: Client,
  log: (line: string) => void,
): Promise<string[]> {
  const reaping = reapContainers(docker, temporalServer, (workflowId) => mayStillRun(client, workflowId), log);
  reaping.catch(() => undefined);
  return reaping;
}

/**
 * Removes only what is positively finished or unknown to the server; on any other error (a slow or
 * restarting server) the container is kept, since its activity may re-attach.
 */
async function mayStillRun(client: Client, workflowId: string): Promise<boolean> {
  try {
    const d = await client.workflow.getHandle(workflowId).describe();
    return d.status.name === 'RUNNING';
  } catch (err) {
    return !(err instanceof WorkflowNotFoundError);
  }
}

function createActivities(
  opts: WorkerOptions,
  deps: {
    docker: Docker;
    temporalServer: TemporalServerRef;
    client: Client;
    parsers: ParserPool;
    host: HostIdentity;
  },
) {
  const { docker, temporalServer, client, parsers, host } = deps;
  const shared = {
    docker,
    temporalServer,
    evidence: createEvidenceTools(parsers),
    images: opts.images,
    log: opts.log,
    faults: parseFaultDelays(process.env.ASSAY_FAULT_DELAYS),
    judgeFor: createJudgeFactory({ log: opts.log, parsers }),
    host,
    assay: readAssayVersion(repoRoot()),
    // Back-pressure: a running agent's 429 / overloaded answers go to its job as they happen.
    notifyThrottled: (jobId: string, report: ThrottleReport) =>
      client.workflow.getHandle(jobWorkflowId(jobId)).signal(throttledSignal, report),
  };
  return heartbeating({
    ...createJobActivities({ workRoot: host.workRoot }),
    ...createTrialActivities(shared),
    ...createProjectActivities(shared),
    ...createJudgeBatchActivities({
      root: repoRoot(),
      // The key is read from the worker's environment here, as for a live judge; it never enters a workflow.
      batchClientFor: (setup) => createJudgeBatchClient(setup, { env: process.env }),
      liveModelFor: (setup) => createJudgeModel(setup, { env: process.env }),
      parsers,
      log: opts.log,
      faults: shared.faults,
    }),
  });
}

/**
 * Two pollers over one connection and the same activities: the shared queue (workflows, prepares,
 * anything host-free) and this host's own queue, where units prepared here send the rest.
 */
function createWorkers(
  connection: NativeConnection,
  opts: WorkerOptions,
  bundle: Promise<WorkflowBundleOption>,
  activities: ReturnType<typeof createActivities>,
  host: HostIdentity,
): Promise<[Worker, Worker]> {
  const slots = opts.maxConcurrentActivities ?? 8;
  const common = { connection, namespace: opts.namespace, activities, maxConcurrentActivityTaskExecutions: slots };
  return Promise.all([
    bundle.then((workflowBundle) => Worker.create({ ...common, taskQueue: TASK_QUEUE, workflowBundle })),
    Worker.create({ ...common, taskQueue: hostQueue(host.id) }),
  ]);
}

/** The two workers once both exist and reaping is done; on any failure, the connections closed. */
async function awaitStartUp(
  created: Promise<[Worker, Worker]>,
  reaping: Promise<unknown>,
  connections: Connections,
): Promise<[Worker, Worker]> {
  try {
    const [workers] = await Promise.all([created, reaping]);
    return workers;
  } catch (err) {
    // A worker that was created is not run: its connection is closed here with the others.
    await Promise.allSettled([connections.native.close(), connections.client.close()]);
    throw err;
  }
}

/** What the workers held, released once they stopped. */
async function releaseAll(parsers: ParserPool, connections: Connections): Promise<void> {
  // Agent containers and work volumes a trial's end left being removed: gone before the worker is.
  await settleContainerRemovals();
  await settleWorkVolumeReleases();
  parsers.close();
  await connections.native.close().catch(() => undefined);
  await connections.client.close().catch(() => undefined);
}

function shutdownRunning(workers: readonly Worker[]): void {
  for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
}

/** Runs every worker until all have stopped; one that fails stops the others, and its error is thrown. */
async function runAll(workers: Worker[]): Promise<void> {
  const runs = workers.map((w) =>
    w.run().catch((err: unknown) => {
      shutdownRunning(workers);
      throw err;
    }),
  );
  const results = await Promise.allSettled(runs);
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}
