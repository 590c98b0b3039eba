// `assay pause | resume | cancel | set-concurrency JOB.yaml`: steer a running job through
// acknowledged Temporal updates on its workflow; each prints the job's control state once the
// workflow has applied the change (or the workflow's reason for refusing it).
import { Client, WorkflowNotFoundError } from '@temporalio/client';
import { CONCURRENCY_BOUNDS, GRACE_SECONDS_BOUNDS } from '@assay/core/bounds';
import {
  cancelJobUpdate,
  jobWorkflowId,
  pauseJobUpdate,
  resumeJobUpdate,
  setConcurrencyUpdate,
  type JobControl,
} from '@assay/workflows/definitions';
import { CliError } from '../cli-error.js';
import { loadJobOutlineOrFail } from '../job-input.js';
import { messages } from '../messages.js';
import { repoRoot } from '../repo-root.js';
import { connectUnchecked, preflightOrFail, temporalTarget } from '../temporal-target.js';

type Send = (handle: ReturnType<Client['workflow']['getHandle']>) => Promise<JobControl>;

async function controlJob(file: string, what: string, send: Send, json?: boolean): Promise<void> {
  const job = loadJobOutlineOrFail(file, repoRoot());
  const target = await temporalTarget();
  // The namespace preflight only when the update fails: a namespace that is not right is said as such.
  const connection = await connectUnchecked(target, 5000);
  const workflowId = jobWorkflowId(job.spec.id);
  try {
    const handle = new Client({ connection, namespace: target.namespace }).workflow.getHandle(workflowId);
    const control = await send(handle).catch(async (err: Error) => {
      await preflightOrFail(connection, target);
      if (err instanceof WorkflowNotFoundError || err.name === 'WorkflowNotFoundError')
        throw new CliError(messages.jobNotRunning(job.spec.id));
      throw new CliError(messages.controlRefused(what, err.cause instanceof Error ? err.cause.message : err.message));
    });
    if (json) console.log(JSON.stringify({ workflowId, control }));
    else console.log(messages.controlApplied(job.spec.id, control));
  } finally {
    await connection.close();
  }
}

export async function pauseCommand(file: string, opts: { now?: boolean; reason?: string; json?: boolean }) {
  const req = { now: opts.now === true, ...(opts.reason ? { reason: opts.reason } : {}) };
  await controlJob(file, 'pause', (h) => h.executeUpdate(pauseJobUpdate, { args: [req] }), opts.json);
}

/** Resume sends the job file's budget as it is now: raised (or removed) there, it applies at once. */
export async function resumeCommand(file: string, opts: { json?: boolean }) {
  const budget = loadJobOutlineOrFail(file, repoRoot()).spec.budget ?? null;
  await controlJob(file, 'resume', (h) => h.executeUpdate(resumeJobUpdate, { args: [{ budget }] }), opts.json);
}

export async function cancelCommand(file: string, opts: { grace?: string; json?: boolean }) {
  const graceSeconds = Number(opts.grace ?? 60);
  const { min, max } = GRACE_SECONDS_BOUNDS;
  if (!Number.isFinite(graceSeconds) || graceSeconds < min || graceSeconds > max)
    throw new CliError(messages.badGrace(opts.grace ?? ''));
  await controlJob(file, 'cancel', (h) => h.executeUpdate(cancelJobUpdate, { args: [{ graceSeconds }] }), opts.json);
}

export async function setConcurrencyCommand(file: string, n: string, opts: { json?: boolean }) {
  const value = Number(n);
  const { min, max } = CONCURRENCY_BOUNDS;
  if (!Number.isInteger(value) || value < min || value > max) throw new CliError(messages.badConcurrency(n));
  await controlJob(file, 'set-concurrency', (h) => h.executeUpdate(setConcurrencyUpdate, { args: [value] }), opts.json);
}
