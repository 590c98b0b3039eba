// The steering state of a job workflow and the updates that change it (`assay pause | resume |
// cancel | set-concurrency`). Each update is validated first (a refused update leaves nothing in
// the history) and answers with the state once applied. The Temporal UI shows the state in the
// job's memo (`assayControl`, `assayControlReason`).
import { setHandler, upsertMemo } from '@temporalio/workflow';
import { CONCURRENCY_BOUNDS, GRACE_SECONDS_BOUNDS } from '@assay/core/pure';
import {
  cancelJobUpdate,
  pauseJobUpdate,
  resumeJobUpdate,
  setConcurrencyUpdate,
  type JobControl,
  type PauseRequest,
  type ResumeRequest,
} from './definitions.js';

/** What the job does when its state changes (the scheduler reacts to `control` itself). */
export interface ControlHooks {
  /** Paused: hold running projects; with `now`, also stop running task trials (they run again). */
  paused: (now: boolean) => Promise<void>;
  /** Why the job cannot resume (its budget, as the request would leave it, is still reached), or null. */
  refuseResume: (req: ResumeRequest) => string | null;
  resumed: (req: ResumeRequest) => Promise<void>;
  cancelled: (graceSeconds: number) => void;
  /** `assay set-concurrency` applied: what is shown against the concurrency (endpoint lanes) is refreshed. */
  concurrencyChanged: () => void;
}

function show(control: JobControl): void {
  upsertMemo({ assayControl: control.state, assayControlReason: control.reason ?? null });
}

/** Paused by the job itself (its budget is reached): as `assay pause` does. */
export async function pauseForReason(control: JobControl, reason: string, hooks: ControlHooks): Promise<void> {
  control.state = 'paused';
  control.reason = reason;
  control.pausedBy = 'budget';
  control.since = Date.now();
  show(control);
  await hooks.paused(false);
}

/** The job's control state and its steering updates' handlers, installed before the job's first await. */
export function installJobControl(initial: JobControl, hooks: ControlHooks): JobControl {
  const control: JobControl = { ...initial, since: initial.since ?? Date.now() };
  if (control.state !== 'running') show(control);
  handlePause(control, hooks);
  handleResume(control, hooks);
  handleCancel(control, hooks);
  handleSetConcurrency(control, hooks);
  return control;
}

function refuseWhenStopping(control: JobControl): void {
  if (control.state === 'cancelling' || control.state === 'cancelled') throw new Error(`the job is ${control.state}`);
}

function handlePause(control: JobControl, hooks: ControlHooks): void {
  setHandler(
    pauseJobUpdate,
    async (req) => {
      if (control.state === 'paused' && !req.now) return { ...control };
      // `--now` on a paused job keeps when it paused; it says it was stopped now too.
      if (control.state !== 'paused') control.since = Date.now();
      control.state = 'paused';
      control.reason = req.reason ?? 'paused by assay pause';
      control.pausedBy = req.now ? 'pause-now' : 'pause';
      show(control);
      await hooks.paused(req.now === true);
      return { ...control };
    },
    { validator: (_req: PauseRequest) => refuseWhenStopping(control) },
  );
}

function handleResume(control: JobControl, hooks: ControlHooks): void {
  setHandler(
    resumeJobUpdate,
    async (req) => {
      await hooks.resumed(req);
      if (control.state !== 'paused') return { ...control };
      control.state = 'running';
      control.since = Date.now();
      delete control.reason;
      delete control.pausedBy;
      show(control);
      return { ...control };
    },
    {
      validator: (req: ResumeRequest) => {
        refuseWhenStopping(control);
        const refusal = hooks.refuseResume(req);
        if (refusal) throw new Error(refusal);
      },
    },
  );
}

function handleCancel(control: JobControl, hooks: ControlHooks): void {
  setHandler(
    cancelJobUpdate,
    (req) => {
      if (control.state === 'cancelling' || control.state === 'cancelled') return { ...control };
      control.state = 'cancelling';
      control.since = Date.now();
      control.reason = `cancelled by assay cancel (grace ${req.graceSeconds} s)`;
      delete control.pausedBy;
      show(control);
      hooks.cancelled(req.graceSeconds);
      return { ...control };
    },
    {
      validator: (req) => {
        const { min, max } = GRACE_SECONDS_BOUNDS;
        if (!Number.isFinite(req.graceSeconds) || req.graceSeconds < min || req.graceSeconds > max)
          throw new Error(`grace must be between ${min} and ${max} seconds`);
      },
    },
  );
}

function handleSetConcurrency(control: JobControl, hooks: ControlHooks): void {
  setHandler(
    setConcurrencyUpdate,
    (n) => {
      control.concurrency = n;
      hooks.concurrencyChanged();
      return { ...control };
    },
    {
      validator: (n) => {
        refuseWhenStopping(control);
        const { min, max } = CONCURRENCY_BOUNDS;
        if (!Number.isInteger(n) || n < min || n > max)
          throw new Error(`concurrency must be a whole number from ${min} to ${max}`);
      },
    },
  );
}

/** Called once the job has stopped everything after `assay cancel`. */
export function markCancelled(control: JobControl): void {
  control.state = 'cancelled';
  control.since = Date.now();
  show(control);
}
