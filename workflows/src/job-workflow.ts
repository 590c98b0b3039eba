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
  getExternalWorkflowHandle,
  isCancellation,
  proxyActivities,
  setHandler,
  startChild,
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
  type JobInput,
  type JobProgress,
  type TrialOutcome,
} from './definitions.js';
import { startControlFile } from './control-file.js';
import { failureMessage } from './failure-message.js';
import { installJobControl, markCancelled, pauseForReason, type ControlHooks } from './job-control.js';
import { installEndpointLimits } from './endpoint-limits.js';
import { createJobSpend } from './job-spend.js';
import { findStartable, planUnits, unitKey, type Unit } from './job-units.js';
import { projectWorkflow } from './project-workflow.js';
import { trialWorkflow } from './trial-workflow.js';

interface ActiveUnit {
  unit: Unit;
  scope: CancellationScope;
  /** The child's id once its start is confirmed (projects only: they receive hold signals). */
  projectId?: string;
  /** Why the job cancelled it: run again later (`pause --now`) or for good (`cancel`). */
  stoppedFor?: 'pause' | 'cancel';
}

const RECORD_CHUNK = 500;

export async function jobWorkflow(input: JobInput): Promise<JobProgress> {
  const carry = input.carry;
  const active = new Map<string, ActiveUnit>();
  const requeued: Unit[] = [];
  let graceSeconds = 0;
  const signalProjects = async (send: (project: ExternalWorkflowHandle) => Promise<void>): Promise<void> => {
    const ids = [...active.values()].flatMap((a) => (a.projectId ? [a.projectId] : []));
    // A project that finished meanwhile cannot be signalled; that is fine.
    await Promise.all(ids.map((id) => send(getExternalWorkflowHandle(id)).catch(() => {})));
  };
  const holdProjects = (hold: boolean) => signalProjects((p) => p.signal(holdSubtasksSignal, hold));
  const spend = createJobSpend(input);
  // Set once the endpoint limits exist (they read the control state the hooks belong to).
  let refreshLanes = (): void => undefined;
  const hooks: ControlHooks = {
    paused: async (now) => {
      if (now)
        for (const a of active.values())
          if ('taskId' in a.unit && !a.stoppedFor) {
            a.stoppedFor = 'pause';
            a.scope.cancel();
          }
      await holdProjects(true);
      // After the hold: a project whose subtask stops waits for the resume before running it again.
      if (now) await signalProjects((p) => p.signal(stopSubtaskSignal));
    },
    refuseResume: (req) => spend.refuseResume(req),
    resumed: async (req) => {
      spend.setBudget(req);
      spend.show(control, remaining);
      await holdProjects(false);
    },
    cancelled: (grace) => {
      graceSeconds = grace;
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
  let finishedHere = 0;
  const remaining = (): number => progress.total - progress.skipped - (carry?.ran ?? 0) - finishedHere;

  const acts = proxyActivities<JobActivities>({
    startToCloseTimeout: '5 minutes',
    heartbeatTimeout: `${input.heartbeatSeconds}s`,
    retry: { maximumAttempts: 5 },
  });
  // A new submission first moves the attempts that will run again under attempts/.
  if (!carry && input.retry?.length) await acts.archiveForRetry({ resultsDir: input.resultsDir, retry: input.retry });
  const finished = new Set(await acts.listFinishedTrials({ resultsDir: input.resultsDir }));
  const plan = planUnits(input, finished, new Set(carry?.infraFailed.map((o) => o.key) ?? []));
  progress.total = plan.total;
  if (!carry) progress.skipped += plan.recorded;
  spend.show(control, remaining);
  // job-control.json from here on, whenever the state changes (the viewer reads it).
  const file = startControlFile(input, () => ({ control, endpoints: progress.endpoints ?? [] }));
  const { pending } = plan;

  const runChild = async (a: ActiveUnit): Promise<TrialOutcome> => {
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
    if (control.state === 'paused') await child.signal(holdSubtasksSignal, true);
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
  };

  const cancelledOutcome = (unit: Unit, started: boolean): TrialOutcome => ({
    key: unitKey(unit),
    kind: 'taskId' in unit ? 'task' : 'project',
    status: 'cancelled',
    score: null,
    decided: null,
    unjudged: 0,
    error: started ? 'stopped by assay cancel' : 'not started: the job was cancelled',
  });

  const runOne = async (unit: Unit): Promise<void> => {
    const key = unitKey(unit);
    const a: ActiveUnit = { unit, scope: new CancellationScope() };
    active.set(key, a);
    progress.running.push(key);
    let outcome: TrialOutcome | null = null;
    let failure: string | null = null;
    try {
      outcome = await a.scope.run(() => runChild(a));
    } catch (err) {
      if (!isCancellation(err)) failure = failureMessage(err);
    } finally {
      active.delete(key);
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
      requeued.push(unit);
      return;
    } else if (!outcome) {
      if ('taskId' in unit) await acts.discardTrialWork({ trial: unit });
      outcome = cancelledOutcome(unit, true);
      await acts.recordCancelled({ resultsDir: input.resultsDir, units: [cancelRecordOf(outcome, true)] });
    }
    progress.done.push(outcome);
    finishedHere++;
    const reached = spend.account(outcome, control, remaining);
    // The budget is reached: pause, as `assay pause` would, saying why.
    if (reached && control.state === 'running') await pauseForReason(control, reached, hooks);
  };

  // Each unit of this run's batch (and each unit `pause --now` put back) starts when the job is
  // running and a lane is free, on the job and on its model endpoint (see endpoint-limits.ts).
  const batch = Math.min(pending.length, input.batchSize ?? 500);
  let next = 0;
  const hasMore = (): boolean => requeued.length > 0 || next < batch;
  const startable = (): { requeued: number } | { pending: number } | null => {
    const room = limits.roomFor();
    const r = requeued.findIndex((u) => room(u.system));
    if (r >= 0) return { requeued: r };
    const i = findStartable(pending, next, batch, (u) => room(u.system));
    return i >= 0 ? { pending: i } : null;
  };
  /** The first unit with room; a pending one moves to `next`, so `pending.slice(next)` stays what never started, in order. */
  const takeStartable = (): Unit | undefined => {
    const at = startable();
    if (!at) return undefined;
    if ('requeued' in at) return requeued.splice(at.requeued, 1)[0];
    const [unit] = pending.splice(at.pending, 1);
    if (unit) pending.splice(next++, 0, unit);
    return unit;
  };
  const inflight = new Set<Promise<void>>();
  const errors: unknown[] = [];
  for (;;) {
    // Woken also when an endpoint's limit changes or its next step up is due (a workflow timer).
    const seen = limits.version;
    const wake = limits.nextWakeAt();
    const go = (): boolean =>
      limits.version !== seen ||
      control.state === 'cancelling' ||
      (!hasMore() && active.size === 0 && inflight.size === 0) ||
      (control.state === 'running' && hasMore() && active.size < control.concurrency && startable() !== null);
    const ready = wake === null ? (await condition(go), true) : await condition(go, Math.max(1, wake - Date.now()));
    limits.tick(Date.now());
    if (ready === false || limits.version !== seen) continue;
    if (control.state === 'cancelling' || !hasMore()) break;
    const unit = takeStartable();
    if (!unit) continue;
    const p = runOne(unit);
    inflight.add(p);
    void p.then(
      () => inflight.delete(p),
      (err: unknown) => {
        inflight.delete(p);
        errors.push(err);
      },
    );
  }

  if (control.state === 'cancelling') {
    // Running units get the grace period to finish on their own, then are cancelled.
    await condition(() => active.size === 0, graceSeconds * 1000);
    for (const a of active.values()) {
      a.stoppedFor = 'cancel';
      a.scope.cancel();
    }
    await condition(() => inflight.size === 0);
    const never = [...requeued, ...pending.slice(next)].map((u) => cancelledOutcome(u, false));
    for (let i = 0; i < never.length; i += RECORD_CHUNK) {
      const chunk = never.slice(i, i + RECORD_CHUNK);
      await acts.recordCancelled({ resultsDir: input.resultsDir, units: chunk.map((o) => cancelRecordOf(o, false)) });
    }
    progress.done.push(...never);
    markCancelled(control);
  }
  if (errors.length > 0) throw errors[0];
  await condition(allHandlersFinished);
  if (progress.total === 0) throw ApplicationFailure.nonRetryable('job has no trials');
  if (control.state !== 'cancelled' && batch < pending.length) {
    await file.settle(); // so the next run's first write cannot land before this run's last
    // Every child of this run has finished, so none is cut off by the new run.
    await continueAsNew<typeof jobWorkflow>({
      ...input,
      carry: {
        alreadyRecorded: progress.skipped,
        ran: (carry?.ran ?? 0) + batch,
        infraFailed: progress.done.filter((o) => o.status === 'infra-failed'),
        control: { ...control },
        endpoints: limits.carry(),
        ...spend.carry(),
      },
    });
  }
  await file.end(control.state === 'cancelled' ? 'cancelled' : 'done');
  return progress;
}

function cancelRecordOf(o: TrialOutcome, started: boolean) {
  return { key: o.key, kind: o.kind ?? 'task', started, reason: o.error ?? 'cancelled' };
}
