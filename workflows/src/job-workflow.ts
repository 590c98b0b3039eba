// A job fans out one child trial workflow per (system, task, trial), at most
// `concurrency` at a time. Child ids are deterministic, and trials already
// recorded on disk are skipped, so submitting the same job again resumes it.
// After `batchSize` children the job continues as new (its history stays small);
// the next run skips what is recorded and what failed for infrastructure reasons.
import {
  ApplicationFailure,
  ParentClosePolicy,
  continueAsNew,
  executeChild,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import type { JobActivities } from '@assay/activities';
import {
  jobProgressQuery,
  projectTrialKey,
  projectWorkflowId,
  searchKeys,
  trialKey,
  trialWorkflowId,
  unitSettings,
  type JobInput,
  type JobProgress,
  type ProjectTrialInput,
  type TrialInput,
  type TrialOutcome,
} from './definitions.js';
import { failureMessage } from './failure-message.js';
import { projectWorkflow } from './project-workflow.js';
import { trialWorkflow } from './trial-workflow.js';

export async function jobWorkflow(input: JobInput): Promise<JobProgress> {
  const carry = input.carry;
  const progress: JobProgress = {
    total: 0,
    skipped: carry?.alreadyRecorded ?? 0,
    running: [],
    done: [...(carry?.infraFailed ?? [])],
  };
  const failedBefore = new Set(carry?.infraFailed.map((o) => o.key) ?? []);
  setHandler(jobProgressQuery, () => progress);

  const { listFinishedTrials, recordInfraFailure } = proxyActivities<JobActivities>({
    startToCloseTimeout: '5 minutes',
    heartbeatTimeout: `${input.heartbeatSeconds}s`,
    retry: { maximumAttempts: 5 },
  });
  const finished = new Set(await listFinishedTrials({ resultsDir: input.resultsDir }));

  const pending: (TrialInput | ProjectTrialInput)[] = [];
  for (const system of input.systems) {
    for (const taskId of input.taskIds) {
      for (let trial = 1; trial <= input.trials; trial++) {
        progress.total++;
        const key = trialKey(system.id, taskId, trial);
        if (finished.has(key) || failedBefore.has(key)) {
          if (!carry && finished.has(key)) progress.skipped++;
          continue;
        }
        pending.push({ ...unitSettings(input, system, trial), taskId });
      }
    }
    for (const projectId of input.projectIds) {
      for (let trial = 1; trial <= input.trials; trial++) {
        progress.total++;
        const key = projectTrialKey(system.id, projectId, trial);
        if (finished.has(key) || failedBefore.has(key)) {
          if (!carry && finished.has(key)) progress.skipped++;
          continue;
        }
        pending.push({ ...unitSettings(input, system, trial), projectId });
      }
    }
  }

  const runOne = async (trial: TrialInput | ProjectTrialInput): Promise<void> => {
    const unit = 'taskId' in trial ? trial.taskId : trial.projectId;
    const key = trialKey(trial.system.id, unit, trial.trial);
    progress.running.push(key);
    const options = {
      parentClosePolicy: ParentClosePolicy.TERMINATE,
      typedSearchAttributes: [
        { key: searchKeys.job, value: input.jobId },
        { key: searchKeys.system, value: trial.system.id },
        { key: searchKeys.task, value: unit },
        { key: searchKeys.harness, value: trial.system.harness },
        { key: searchKeys.model, value: trial.system.model ?? 'none' },
      ],
    };
    let outcome: TrialOutcome;
    try {
      if ('taskId' in trial) {
        outcome = await executeChild(trialWorkflow, {
          ...options,
          workflowId: trialWorkflowId(input.jobId, key),
          args: [trial],
        });
      } else {
        const p = await executeChild(projectWorkflow, {
          ...options,
          workflowId: projectWorkflowId(input.jobId, key),
          args: [trial],
        });
        const unjudged = p.checkpoints.reduce((a, c) => a + c.unjudged, 0);
        outcome = { key, kind: 'project', status: 'completed', score: p.finalScore, decided: p.processScore, unjudged };
      }
    } catch (err) {
      // Infrastructure gave up after its retries: say so on disk, never as a score.
      const message = failureMessage(err);
      await recordInfraFailure({
        resultsDir: input.resultsDir,
        key: `${'taskId' in trial ? 'trials' : 'projects'}/${key}`,
        error: message,
      });
      outcome = { key, status: 'infra-failed', score: null, decided: null, unjudged: 0, error: message };
    }
    progress.running = progress.running.filter((k) => k !== key);
    progress.done.push(outcome);
  };

  // A fixed pool of lanes, each pulling the next pending trial, up to this run's batch.
  const batch = Math.min(pending.length, input.batchSize ?? 500);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < batch) {
      const trial = pending[next++];
      if (trial) await runOne(trial);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(input.concurrency, batch)) }, lane));
  if (progress.total === 0) throw ApplicationFailure.nonRetryable('job has no trials');
  if (batch < pending.length) {
    // Every child of this run has finished, so none is cut off by the new run.
    await continueAsNew<typeof jobWorkflow>({
      ...input,
      carry: {
        alreadyRecorded: progress.skipped,
        ran: (carry?.ran ?? 0) + batch,
        infraFailed: progress.done.filter((o) => o.status === 'infra-failed'),
      },
    });
  }
  return progress;
}
