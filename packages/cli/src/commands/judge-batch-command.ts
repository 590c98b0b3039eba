// `assay judge JOB.yaml --judge setup.yaml --batch`: the judge's turns go through the provider's
// batch API (about half price, results within 24 h), durably on Temporal: one judgeBatchWorkflow per
// setup (workflows/src/judge-batch-workflow.ts), served by an embedded worker unless --no-worker.
// The command only starts and watches: run it again (after a crash, or from another shell) and it
// attaches to the workflow where it is. Records land in <results>/judges/<name>/ as without --batch.
import path from 'node:path';
import { Client, WorkflowIdConflictPolicy, WorkflowIdReusePolicy, type WorkflowHandle } from '@temporalio/client';
import type { LoadedJob } from '@assay/benchmark';
import { TASK_QUEUE } from '@assay/workflows/definitions';
import {
  JUDGE_BATCH_MAX_ROUNDS,
  judgeBatchStateQuery,
  judgeBatchWorkflowId,
  type JudgeBatchInput,
  type JudgeBatchOutcome,
  type JudgeBatchState,
} from '@assay/workflows/judge-batch';
import type { judgeBatchWorkflow } from '@assay/workflows';
import { judgeRootKey, openResultsStore, readProjectRecords, readTrialRecords } from '@assay/results';
import type { JudgeCost } from '@assay/judge';
import { CliError } from '../cli-error.js';
import { ensureRuntime } from '../ensure-runtime.js';
import { messages } from '../messages.js';
import { repoRoot } from '../repo-root.js';
import { connectChecked } from '../temporal-target.js';
import { openJudging, printResults, type JudgeOptions, type NamedSetup, type SetupResult } from './judge-command.js';

export async function judgeBatchCommand(file: string, opts: JudgeOptions): Promise<void> {
  const { job, setups, concurrency } = await openJudging(file, opts);
  for (const { name, setup } of setups)
    if (setup.mode === 'checks-only' || !setup.provider) throw new CliError(messages.batchNeedsModel(name, setup.mode));
  const pollSeconds = pollSecondsOf(opts.pollSeconds);
  const root = repoRoot();
  const log = opts.json ? (line: string) => console.error(line) : (line: string) => console.log(line);
  const embedded = opts.worker !== false;
  const runtime = await ensureRuntime({ root, log, needDocker: embedded });
  const namespace = runtime.target.namespace;
  const connection = await connectChecked(runtime.target, { log, createNamespace: true });
  const worker = embedded
    ? await (
        await import('../worker/start-worker.js')
      ).startWorker({
        address: runtime.address,
        namespace,
        connection: runtime.target.connectionOptions,
        images: runtime.images ?? { scriptedAgent: '' },
        log,
      })
    : null;
  try {
    const client = new Client({ connection, namespace });
    const results: SetupResult[] = [];
    for (const named of setups) {
      const input: JudgeBatchInput = {
        jobFile: path.resolve(file),
        name: named.name,
        setup: named.setup,
        concurrency,
        pollSeconds,
        heartbeatSeconds: Number(process.env.ASSAY_HEARTBEAT_SECONDS ?? 30),
        maxRounds: JUDGE_BATCH_MAX_ROUNDS,
      };
      const handle = await client.workflow.start<typeof judgeBatchWorkflow>('judgeBatchWorkflow', {
        workflowId: judgeBatchWorkflowId(job.spec.id, named.name),
        taskQueue: TASK_QUEUE,
        args: [input],
        workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
        workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      });
      log(`judge setup ${named.name}: batch judging in workflow ${handle.workflowId}`);
      const outcome = await watchRounds(handle, log).catch((err: unknown) => {
        throw new CliError(messages.judgeBatchFailed(named.name, causeOf(err)));
      });
      results.push(await readSetupResult(job, named, outcome));
    }
    const expected = (trials: SetupResult['trials']) =>
      new Map(job.spec.systems.map((s) => [s.id, trials.filter((r) => r.system.id === s.id).length]));
    printResults(results, expected, opts.json === true);
  } finally {
    await worker?.shutdown();
    await connection.close();
  }
}

function pollSecondsOf(value: string | undefined): number {
  if (value === undefined) return 30;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 3600) throw new CliError(messages.badPollSeconds(value));
  return n;
}

/** The workflow's rounds as they change, until it ends. */
async function watchRounds(
  handle: WorkflowHandle<typeof judgeBatchWorkflow>,
  log: (line: string) => void,
): Promise<JudgeBatchOutcome> {
  let shown = '';
  let asking: Promise<void> = Promise.resolve();
  const show = async () => {
    const state = await handle.query(judgeBatchStateQuery).catch(() => null);
    const line = state ? describeState(state) : '';
    if (line && line !== shown) log(line);
    shown = line || shown;
  };
  // One query at a time, and none left in flight once the result is in (the connection closes next).
  const timer = setInterval(() => {
    asking = asking.then(show);
  }, 2000);
  try {
    return await handle.result();
  } finally {
    clearInterval(timer);
    await asking;
  }
}

function describeState(state: JudgeBatchState): string {
  const last = state.rounds.at(-1);
  if (!last) return `  round 1: ${state.phase}`;
  const ended = last.ended
    ? `, ${last.ended.succeeded} answered, ${last.ended.failed + last.ended.missing} failed`
    : '';
  return `  round ${last.round}: ${last.turns} turns, batch ${last.batchId ?? '(submitting)'}, ${state.phase}${ended}`;
}

function causeOf(err: unknown): string {
  let e = err as { message?: string; cause?: unknown } | undefined;
  while (e?.cause) e = e.cause as typeof e;
  return e?.message ?? String(err);
}

async function readSetupResult(job: LoadedJob, named: NamedSetup, outcome: JudgeBatchOutcome): Promise<SetupResult> {
  const out = openResultsStore(job.resultsDir).scoped(judgeRootKey(named.name));
  const cost = (await out.getJson(`batches/${outcome.run}/cost.json`)) as JudgeCost;
  return {
    trials: await readTrialRecords(out, { problems: [] }),
    projects: await readProjectRecords(out, { problems: [] }),
    cost,
    outDir: out.location,
    // Parsed by the worker's rounds, which do not count it: not shown rather than shown as 0.
    evidence: null,
  };
}
