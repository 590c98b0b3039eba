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
  createJobActivities,
  createProjectActivities,
  createTrialActivities,
  heartbeating,
  parseFaultDelays,
  reapContainers,
} from '@assay/activities';
import { ParserPool } from '@assay/evidence';
import type { TemporalConnectionOptions } from '@assay/infra/temporal-connection';
import { TASK_QUEUE } from '@assay/workflows/definitions';
import { createEvidenceTools, sharedParserPool } from './evidence-tools.js';
import { createJudgeFactory } from './create-judge-factory.js';
import { cachedWorkflowBundle } from './cached-workflow-bundle.js';
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
}

export interface RunningWorker {
  worker: Worker;
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
async function workflowBundle(): Promise<{ codePath: string } | { code: string }> {
  const workflowsPath = require.resolve('@assay/workflows');
  const bundlerOptions = { ignoreModules: [] };
  const build = () => bundleWorkflowCode({ workflowsPath, ...bundlerOptions });
  if (process.env.ASSAY_WORKFLOW_BUNDLE_CACHE === '0') return build();
  // workflows/src/index.ts -> the package folder.
  const workflowsDir = path.dirname(path.dirname(workflowsPath));
  const cached = await cachedWorkflowBundle({ root: repoRoot(), workflowsDir, bundlerOptions, build });
  return { codePath: cached.codePath };
}

export async function startWorker(opts: WorkerOptions): Promise<RunningWorker> {
  installRuntimeOnce();
  const docker = new Docker();
  const connectionOptions = opts.connection ?? { address: opts.address };
  const connection = await NativeConnection.connect(connectionOptions);
  const clientConnection = await Connection.connect(connectionOptions);
  const client = new Client({ connection: clientConnection, namespace: opts.namespace });

  // Remove only what is positively finished or unknown to the server; on any other error
  // (a slow or restarting server) keep the container, since its activity may re-attach.
  // Only containers labelled with this server and namespace: another server's share the engine.
  const temporalServer = { address: connectionOptions.address, namespace: opts.namespace };
  await reapContainers(
    docker,
    temporalServer,
    async (workflowId) => {
      try {
        const d = await client.workflow.getHandle(workflowId).describe();
        return d.status.name === 'RUNNING';
      } catch (err) {
        return !(err instanceof WorkflowNotFoundError);
      }
    },
    opts.log,
  );

  const parsers = opts.parserPoolSize ? new ParserPool({ size: opts.parserPoolSize }) : sharedParserPool();
  // Started now, off the critical path: the first evaluation finds a parser ready.
  void parsers.warm().catch(() => undefined);
  const shared = {
    docker,
    temporalServer,
    evidence: createEvidenceTools(parsers),
    images: opts.images,
    log: opts.log,
    faults: parseFaultDelays(process.env.ASSAY_FAULT_DELAYS),
    judgeFor: createJudgeFactory({ log: opts.log, parsers }),
  };
  const activities = heartbeating({
    ...createJobActivities(),
    ...createTrialActivities(shared),
    ...createProjectActivities(shared),
  });
  const worker = await Worker.create({
    connection,
    namespace: opts.namespace,
    taskQueue: TASK_QUEUE,
    workflowBundle: await workflowBundle(),
    activities,
    maxConcurrentActivityTaskExecutions: opts.maxConcurrentActivities ?? 8,
  });
  const done = worker.run().finally(async () => {
    parsers.close();
    await connection.close().catch(() => undefined);
    await clientConnection.close().catch(() => undefined);
  });
  return {
    worker,
    done,
    shutdown: async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}
