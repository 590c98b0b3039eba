// One time-skipping Temporal test server per test file, the real workflow bundle
// (built once), and a worker per test on its own task queue with stub activities.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import {
  DefaultLogger,
  Runtime,
  Worker,
  bundleWorkflowCode,
  type LogLevel,
  type WorkflowBundle,
} from '@temporalio/worker';
import type { Client } from '@temporalio/client';
import type {
  AgentArgs,
  AgentRun,
  EvaluateArgs,
  Evaluation,
  JobActivities,
  ProjectActivities,
  RecordArgs,
  TrialActivities,
} from '@assay/activities';
import { hostQueue, type TrialRecord } from '@assay/core';
import { ASSAY_SEARCH_ATTRIBUTES, ensureTemporalTestServer } from '@assay/infra';
import { withFinishTrial } from './stub-activities.js';

const require = createRequire(import.meta.url);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The parts of runAgentAndFinish a test stubs one at a time: the agent, the evaluation and the record.
 * withFinishTrial composes them into that activity as the real one runs them (activities/src/finish-trial.ts).
 */
export interface TrialParts {
  runAgent(args: AgentArgs): Promise<AgentRun>;
  evaluateTrial(args: Omit<EvaluateArgs, 'run'>): Promise<Evaluation>;
  recordTrial(args: RecordArgs): Promise<TrialRecord>;
}

export type Activities = JobActivities & TrialActivities & ProjectActivities & TrialParts;
/** Only what a test's workflows call; a call to a missing one fails that activity. */
export type Stubs = Partial<Activities>;

export interface WorkflowTestEnv {
  env: TestWorkflowEnvironment;
  client: Client;
  /**
   * Runs `fn` while a worker with these stubs polls a fresh task queue, then stops the worker;
   * `hosts`: a worker per host id on that host's own queue (`assay-host:<id>`), with its stubs.
   */
  withWorker<T>(stubs: Stubs, fn: (taskQueue: string) => Promise<T>, hosts?: Record<string, Stubs>): Promise<T>;
  teardown(): Promise<void>;
}

let queues = 0;
/** temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD (the proto package is not a dependency). */
const KEYWORD = 2;

export async function startWorkflowTestEnv(): Promise<WorkflowTestEnv> {
  // Expected workflow failures are logged at WARN, and core warns that the test server is not a
  // full server: tests want only errors (ASSAY_TEST_LOG_LEVEL=INFO to see more).
  const level = (process.env.ASSAY_TEST_LOG_LEVEL ?? 'ERROR') as LogLevel;
  try {
    Runtime.install({ logger: new DefaultLogger(level), telemetryOptions: { logging: { filter: { core: level } } } });
  } catch {
    // Already installed in this process (a forked worker reused for another file): keep it.
  }
  const executable = await ensureTemporalTestServer({ root: repoRoot });
  const [env, bundle] = await Promise.all([
    TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path: executable } } }),
    bundleWorkflowCode({ workflowsPath: require.resolve('@assay/workflows'), logger: new DefaultLogger('WARN') }),
  ]);
  // As `assay setup` does on the dev server: child workflows carry these, and the test server
  // leaves a child with an unregistered search attribute unstarted (no error, the parent waits forever).
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(ASSAY_SEARCH_ATTRIBUTES.map((name) => [name, KEYWORD])),
  });
  return {
    env,
    client: env.client,
    withWorker: (stubs, fn, hosts) => runWithWorker(env, bundle, stubs, fn, hosts),
    teardown: () => env.teardown(),
  };
}

async function runWithWorker<T>(
  env: TestWorkflowEnvironment,
  bundle: WorkflowBundle,
  stubs: Stubs,
  fn: (taskQueue: string) => Promise<T>,
  hosts: Record<string, Stubs> = {},
): Promise<T> {
  const taskQueue = `test-${process.pid}-${++queues}`;
  const connection = env.nativeConnection;
  const namespace = env.namespace ?? 'default';
  // Every job writes job-control.json as its state changes: a test that does not look at it need not stub it.
  // A trial's runAgentAndFinish is made of the stubs' own agent, evaluate and record (withFinishTrial).
  const activities: Stubs = withFinishTrial({ writeJobControl: async () => undefined, ...stubs });
  const worker = await Worker.create({ connection, namespace, taskQueue, workflowBundle: bundle, activities });
  const hostWorkers = await Promise.all(
    Object.entries(hosts).map(([id, activities]) =>
      Worker.create({ connection, namespace, taskQueue: hostQueue(id), activities: withFinishTrial(activities) }),
    ),
  );
  // Each host worker runs until the test's function is done, inside the shared queue's worker.
  const run = hostWorkers.reduce<() => Promise<T>>(
    (inner, w) => () => w.runUntil(inner()),
    () => fn(taskQueue),
  );
  return worker.runUntil(run());
}
