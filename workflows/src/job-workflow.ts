// A job fans out one child workflow per unit (system × task × trial, system × project × trial),
// at most `control.concurrency` at a time (changed live by `assay set-concurrency`). Child ids
// are deterministic, and units already recorded on disk are skipped, so submitting the same job
// again resumes it. After `batchSize` children the job continues as new (its history stays
// small), carrying its control state; the next run skips what is recorded and what failed for
// infrastructure reasons. `assay pause` stops new starts (and holds running projects before
// their next subtask; `--now` also stops running task trials, which run again, and running
// subtasks, which their project runs again from its last checkpoint); `assay cancel` stops
// everything after a grace period and records the unfinished units as cancelled.
import {
  ApplicationFailure,
  CancellationScope,
  ParentClosePolicy,
  allHandlersFinished,
  condition,
  continueAsNew,
  executeChild,
  getExternalWorkflowHandle,
  isCancellation,
  proxyActivities,
  setHandler,
  startChild,
  type ActivityInterfaceFor,
  type ExternalWorkflowHandle,
} from '@temporalio/workflow';
import type { JobActivities } from '@assay/activities';
import {
  holdSubtasksSignal,
  jobProgressQuery,
  projectWorkflowId,
  searchKeys,
  stopSubtaskSignal,
  trialWorkflowId,
  type JobControl,
  type JobInput,
  type JobProgress,
  type TrialOutcome,
} from './definitions.js';
import { startControlFile } from './control-file.js';
import { failureMessage } from './failure-message.js';
import { installJobControl, markCancelled, pauseForReason, type ControlHooks } from './job-control.js';
import { installEndpointLimits, type EndpointLimits } from './endpoint-limits.js';
import { createJobSpend } from './job-spend.js';
import { findStartable, planUnits, unitKey, type Unit } from './job-units.js';
import { projectWorkflow } from './project-workflow.js';
import { trialWorkflow } from './trial-workflow.js';
import { judgeBatchWorkflow } from './judge-batch-workflow.js';
import { JOB_BATCH, JUDGE_BATCH_MAX_ROUNDS, judgeBatchWorkflowId } from './judge-batch-definitions.js';

interface ActiveUnit {
  unit: Unit;
  scope: CancellationScope;
  /** The child's id once its start is confirmed (projects only: they receive hold signals). */
  projectId?: string;
  /** Why the job cancelled it: run again later (`pause --now`) or for good (`cancel`). */
  stoppedFor?: 'pause' | 'cancel';
}

const RECORD_CHUNK = 500;

/** What the phases of one job run share. */
interface JobRun {
  input: JobInput;
  acts: ActivityInterfaceFor<JobActivities>;
  control: JobControl;
  hooks: ControlHooks;
  progress: JobProgress;
  limits: EndpointLimits;
  spend: ReturnType<typeof createJobSpend>;
  /** The units running now, by key. */
  active: Map<string, ActiveUnit>;
  /** Units `pause --now` stopped: they start again before any pending one. */
  requeued: Unit[];
  finishedHere: number;
  /** Units of the whole job not finished yet (for the spend's projection). */
  remaining: () => number;
  /** How long `assay cancel` lets running units finish on their own. */
  graceSeconds: number;
}

/** This run's share of the pending units: the first `size`; `pending.slice(next)` never started, in order. */
interface Batch {
  pending: Unit[];
  size: number;
  next: number;
}

export async function jobWorkflow(input: JobInput): Promise<JobProgress> {
  const carry = input.carry;
  const job = openJob(input);
  const { acts, control, progress } = job;
  // A new submission first moves the attempts that will run again under attempts/.
  if (!carry && input.retry?.length) await acts.archiveForRetry({ resultsDir: input.resultsDir, retry: input.retry });
  const finished = new Set(await acts.listFinishedTrials({ resultsDir: input.resultsDir }));
  const plan = planUnits(input, finished, new Set(carry?.infraFailed.map((o) => o.key) ?? []));
  progress.total = plan.total;
  if (!carry) progress.skipped += plan.recorded;
  job.spend.show(control, job.remaining);
  // job-control.json from here on, whenever the state changes (the viewer reads it).
  const file = startControlFile(input, () => ({ control, endpoints: progress.endpoints ?? [] }));
  const { pending } = plan;
  const batch: Batch = { pending, size: Math.min(pending.length, input.batchSize ?? 500), next: 0 };
  const errors = await schedule(job, batch);
  if (errors.length > 0) throw errors[0];
  await condition(allHandlersFinished);
  if (progress.total === 0) throw ApplicationFailure.nonRetryable('job has no trials');
  if (control.state !== 'cancelled' && batch.size < pending.length) {
    await file.settle(); // so the next run's first write cannot land before this run's last
    // Every child of this run has finished, so none is cut off by the new run.
    await continueAsNew<typeof jobWorkflow>({
      ...input,
      carry: {
        alreadyRecorded: progress.skipped,
        ran: (carry?.ran ?? 0) + batch.size,
        infraFailed: progress.done.filter((o) => o.status === 'infra-failed'),
        control: { ...control },
        endpoints: job.limits.carry(),
        ...job.spend.carry(),
      },
    });
  }
  if (control.state !== 'cancelled' && input.judge.batch && input.judge.mode !== 'checks-only')
    await judgeInBatches(job);
  await file.end(control.state === 'cancelled' ? 'cancelled' : 'done');
  return progress;
}

/**
 * `judge.batch`: once every unit has run, what they left awaiting the batch is judged through the provider's
 * batch API by a child workflow, which rewrites those records in place (judge-batch-workflow.ts).
 */
async function judgeInBatches({ input }: JobRun): Promise<void> {
  if (!input.jobFile) throw ApplicationFailure.nonRetryable('judge.batch needs the job file: submit with assay run');
  await executeChild(judgeBatchWorkflow, {
    workflowId: judgeBatchWorkflowId(input.jobId, JOB_BATCH),
    args: [
      {
        jobFile: input.jobFile,
        name: JOB_BATCH,
        inPlace: true,
        setup: input.judge,
        concurrency: input.judge.concurrency,
        pollSeconds: input.batchPollSeconds ?? 30,
        heartbeatSeconds: input.heartbeatSeconds,
        maxRounds: JUDGE_BATCH_MAX_ROUNDS,
      },
    ],
  });
}

/**
 * The job's state and its controls: the pause / resume / cancel / set-concurrency handlers, the
 * progress query and the endpoint lanes, all installed before the job's first await.
 */
function openJob(input: JobInput): JobRun {
  const carry = input.carry;
  const spend = createJobSpend(input);
  // Set once the endpoint limits exist (they read the control state the hooks belong to).
  let refreshLanes = (): void => undefined;
  const hooks: ControlHooks = {
    paused: (now) => pauseUnits(job, now),
    refuseResume: (req) => spend.refuseResume(req),
    resumed: async (req) => {
      spend.setBudget(req);
      spend.show(control, job.remaining);
      await holdProjects(job, false);
    },
    cancelled: (grace) => {
      job.graceSeconds = grace;
    },
    concurrencyChanged: () => refreshLanes(),
  };
  const control = installJobControl(carry?.control ?? { state: 'running', concurrency: input.concurrency }, hooks);
  const progress: JobProgress = {
    total: 0,
    skipped: carry?.alreadyRecorded ?? 0,
    running: [],
    done: [...(carry?.infraFailed ?? [])],
    control,
  };
  setHandler(jobProgressQuery, () => progress);
  const active = new Map<string, ActiveUnit>();
  // Back-pressure: lanes per model endpoint, lowered while it answers 429 / overloaded.
  const limits = installEndpointLimits({
    ...(input.backPressure ? { backPressure: input.backPressure } : {}),
    ...(carry?.endpoints ? { initial: carry.endpoints } : {}),
    concurrency: () => control.concurrency,
    running: () => [...active.values()].map((a) => a.unit.system),
    show: (views) => {
      progress.endpoints = views;
    },
  });
  refreshLanes = () => limits.concurrencyChanged(Date.now());
  const job: JobRun = {
    input,
    acts: proxyActivities<JobActivities>({
      startToCloseTimeout: '5 minutes',
      heartbeatTimeout: `${input.heartbeatSeconds}s`,
      retry: { maximumAttempts: 5 },
    }),
    control,
    hooks,
    progress,
    limits,
    spend,
    active,
    requeued: [],
    finishedHere: 0,
    remaining: () => progress.total - progress.skipped - (carry?.ran ?? 0) - job.finishedHere,
    graceSeconds: 0,
  };
  return job;
}

/** Paused: running projects hold; with `now`, running task trials stop (they run again) and so do running subtasks. */
async function pauseUnits(job: JobRun, now: boolean): Promise<void> {
  if (now)
    for (const a of job.active.values())
      if ('taskId' in a.unit && !a.stoppedFor) {
        a.stoppedFor = 'pause';
        a.scope.cancel();
      }
  await holdProjects(job, true);
  // After the hold: a project whose subtask stops waits for the resume before running it again.
  if (now) await signalProjects(job, (p) => p.signal(stopSubtaskSignal));
}

function holdProjects(job: JobRun, hold: boolean): Promise<void> {
  return signalProjects(job, (p) => p.signal(holdSubtasksSignal, hold));
}

async function signalProjects(job: JobRun, send: (project: ExternalWorkflowHandle) => Promise<void>): Promise<void> {
  const ids = [...job.active.values()].flatMap((a) => (a.projectId ? [a.projectId] : []));
  // A project that finished meanwhile cannot be signalled; that is fine.
  await Promise.all(ids.map((id) => send(getExternalWorkflowHandle(id)).catch(() => {})));
}

/**
 * The scheduler: each unit of the batch (and each unit `pause --now` put back) starts when the job
 * is running and a lane is free, on the job and on its model endpoint (see endpoint-limits.ts),
 * until none is left or the job is cancelling. Returns the units' errors.
 */
async function schedule(job: JobRun, batch: Batch): Promise<unknown[]> {
  const { control, limits, active } = job;
  const inflight = new Set<Promise<void>>();
  const errors: unknown[] = [];
  for (;;) {
    // Woken also when an endpoint's limit changes or its next step up is due (a workflow timer).
    const seen = limits.version;
    const wake = limits.nextWakeAt();
    const go = (): boolean =>
      limits.version !== seen ||
      control.state === 'cancelling' ||
      (!hasMore(job, batch) && active.size === 0 && inflight.size === 0) ||
      (control.state === 'running' &&
        hasMore(job, batch) &&
        active.size < control.concurrency &&
        startable(job, batch) !== null);
    const ready = wake === null ? (await condition(go), true) : await condition(go, Math.max(1, wake - Date.now()));
    limits.tick(Date.now());
    if (ready === false || limits.version !== seen) continue;
    if (control.state === 'cancelling' || !hasMore(job, batch)) break;
    const unit = takeStartable(job, batch);
    if (!unit) continue;
    const p = runUnit(job, unit);
    inflight.add(p);
    void p.then(
      () => inflight.delete(p),
      (err: unknown) => {
        inflight.delete(p);
        errors.push(err);
      },
    );
  }
  // Drained here, not by the caller: an await before the grace timer could let another command go first.
  if (control.state === 'cancelling') await drain(job, batch, inflight);
  return errors;
}

function hasMore(job: JobRun, batch: Batch): boolean {
  return job.requeued.length > 0 || batch.next < batch.size;
}

function startable(job: JobRun, batch: Batch): { requeued: number } | { pending: number } | null {
  const room = job.limits.roomFor();
  const r = job.requeued.findIndex((u) => room(u.system));
  if (r >= 0) return { requeued: r };
  const i = findStartable(batch.pending, batch.next, batch.size, (u) => room(u.system));
  return i >= 0 ? { pending: i } : null;
}

/** The first unit with room; a pending one moves to `next`, so `pending.slice(next)` stays what never started, in order. */
function takeStartable(job: JobRun, batch: Batch): Unit | undefined {
  const at = startable(job, batch);
  if (!at) return undefined;
  if ('requeued' in at) return job.requeued.splice(at.requeued, 1)[0];
  const [unit] = batch.pending.splice(at.pending, 1);
  if (unit) batch.pending.splice(batch.next++, 0, unit);
  return unit;
}

/**
 * After `assay cancel`: running units get the grace period to finish on their own, then are
 * cancelled; the units that never started are recorded as cancelled.
 */
async function drain(job: JobRun, batch: Batch, inflight: Set<Promise<void>>): Promise<void> {
  const { input, active, acts } = job;
  await condition(() => active.size === 0, job.graceSeconds * 1000);
  for (const a of active.values()) {
    a.stoppedFor = 'cancel';
    a.scope.cancel();
  }
  await condition(() => inflight.size === 0);
  const never = [...job.requeued, ...batch.pending.slice(batch.next)].map((u) => cancelledOutcome(u, false));
  for (let i = 0; i < never.length; i += RECORD_CHUNK) {
    const chunk = never.slice(i, i + RECORD_CHUNK);
    await acts.recordCancelled({ resultsDir: input.resultsDir, units: chunk.map((o) => cancelRecordOf(o, false)) });
  }
  job.progress.done.push(...never);
  markCancelled(job.control);
}

/** One unit, start to outcome: its child, then what its end means (an infra failure, a pause, a cancel). */
async function runUnit(job: JobRun, unit: Unit): Promise<void> {
  const { input, acts, control, progress } = job;
  const key = unitKey(unit);
  const a: ActiveUnit = { unit, scope: new CancellationScope() };
  job.active.set(key, a);
  progress.running.push(key);
  let outcome: TrialOutcome | null = null;
  let failure: string | null = null;
  try {
    outcome = await a.scope.run(() => runChild(job, a));
  } catch (err) {
    if (!isCancellation(err)) failure = failureMessage(err);
  } finally {
    job.active.delete(key);
    progress.running = progress.running.filter((k) => k !== key);
  }
  if (failure !== null) {
    // Infrastructure gave up after its retries: say so on disk, never as a score.
    await acts.recordInfraFailure({
      resultsDir: input.resultsDir,
      key: `${'taskId' in unit ? 'trials' : 'projects'}/${key}`,
      error: failure,
    });
    outcome = { key, status: 'infra-failed', score: null, decided: null, unjudged: 0, error: failure };
  } else if (!outcome && a.stoppedFor === 'pause' && control.state !== 'cancelling' && 'taskId' in unit) {
    // Stopped by `pause --now`: from a clean workspace when it runs again.
    await acts.discardTrialWork({ trial: unit });
    job.requeued.push(unit);
    return;
  } else if (!outcome) {
    if ('taskId' in unit) await acts.discardTrialWork({ trial: unit });
    outcome = cancelledOutcome(unit, true);
    await acts.recordCancelled({ resultsDir: input.resultsDir, units: [cancelRecordOf(outcome, true)] });
  }
  progress.done.push(outcome);
  job.finishedHere++;
  const reached = job.spend.account(outcome, control, job.remaining);
  // The budget is reached: pause, as `assay pause` would, saying why.
  if (reached && control.state === 'running') await pauseForReason(control, reached, job.hooks);
}

/** The unit's child workflow, to its outcome. */
async function runChild(job: JobRun, a: ActiveUnit): Promise<TrialOutcome> {
  const { input } = job;
  const { unit } = a;
  const key = unitKey(unit);
  const options = {
    parentClosePolicy: ParentClosePolicy.TERMINATE,
    typedSearchAttributes: [
      { key: searchKeys.job, value: input.jobId },
      { key: searchKeys.system, value: unit.system.id },
      { key: searchKeys.task, value: 'taskId' in unit ? unit.taskId : unit.projectId },
      { key: searchKeys.harness, value: unit.system.harness },
      { key: searchKeys.model, value: unit.system.model ?? 'none' },
    ],
  };
  if ('taskId' in unit) {
    const child = await startChild(trialWorkflow, {
      ...options,
      workflowId: trialWorkflowId(input.jobId, key),
      args: [unit],
    });
    return child.result();
  }
  const child = await startChild(projectWorkflow, {
    ...options,
    workflowId: projectWorkflowId(input.jobId, key),
    args: [unit],
  });
  a.projectId = child.workflowId;
  // Paused between the start command and its confirmation: the project has not been told yet.
  if (job.control.state === 'paused') await child.signal(holdSubtasksSignal, true);
  const p = await child.result();
  const unjudged = p.checkpoints.reduce((n, c) => n + c.unjudged, 0);
  return {
    key,
    kind: 'project',
    status: 'completed',
    score: p.finalScore,
    decided: p.processScore,
    unjudged,
    usage: p.usage,
  };
}

function cancelledOutcome(unit: Unit, started: boolean): TrialOutcome {
  return {
    key: unitKey(unit),
    kind: 'taskId' in unit ? 'task' : 'project',
    status: 'cancelled',
    score: null,
    decided: null,
    unjudged: 0,
    error: started ? 'stopped by assay cancel' : 'not started: the job was cancelled',
  };
}

function cancelRecordOf(o: TrialOutcome, started: boolean) {
  return { key: o.key, kind: o.kind ?? 'task', started, reason: o.error ?? 'cancelled' };
}
