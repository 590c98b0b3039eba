// One trial of one system on one single task:
//   prepare (inputs only) -> agent (container) -> collect (content-addressed)
//   -> evaluate (checks, then judge) -> record.
// One agent attempt per trial: the agent activity reports an agent failure as a
// result; only infrastructure errors (a lost worker, Docker down) are retried,
// and a retried agent activity re-attaches to the container it already started.
import { ActivityCancellationType, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { TrialActivities } from '@assay/activities';
import { unitUsageOf } from '@assay/core';
import { trialKey, trialStageQuery, type TrialInput, type TrialOutcome } from './definitions.js';

export async function trialWorkflow(input: TrialInput): Promise<TrialOutcome> {
  let stage = 'preparing';
  setHandler(trialStageQuery, () => stage);
  const key = trialKey(input.system.id, input.taskId, input.trial);

  const quick = proxyActivities<TrialActivities>({
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: `${input.heartbeatSeconds}s`,
    retry: { maximumAttempts: 5, initialInterval: '2s' },
  });
  const agent = proxyActivities<TrialActivities>({
    startToCloseTimeout: `${Math.ceil(input.limits.agentSeconds + input.limits.setupSeconds + 300)}s`,
    heartbeatTimeout: `${input.heartbeatSeconds}s`,
    retry: { maximumAttempts: 10, initialInterval: '2s', nonRetryableErrorTypes: ['HarnessNotAvailable'] },
    // Cancelled (`assay cancel`, `pause --now`): the workflow ends only once the container is gone.
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  });
  const verifier = proxyActivities<TrialActivities>({
    startToCloseTimeout: `${Math.ceil(input.limits.verifierSeconds)}s`,
    heartbeatTimeout: `${input.heartbeatSeconds}s`,
    retry: { maximumAttempts: 5, initialInterval: '5s' },
  });

  const workspace = await quick.prepareWorkspace(input);
  stage = 'agent';
  const run = await agent.runAgent({ trial: input, workspace, workflowId: workflowInfo().workflowId });
  stage = 'collecting';
  const deliverables = await quick.collectDeliverables({ trial: input, workspace });
  stage = 'evaluating';
  const evaluation = await verifier.evaluateTrial({ trial: input, workspace, deliverables });
  stage = 'recording';
  const record = await quick.recordTrial({ trial: input, run, deliverables, evaluation });
  stage = 'done';
  return {
    key,
    status: record.status,
    score: record.score.value,
    decided: record.score.decided,
    unjudged: record.verdicts.filter((v) => v.decision === 'unjudged').length,
    usage: unitUsageOf(
      [{ usage: record.usage, agentSeconds: record.agent.durationSeconds, verdicts: record.verdicts }],
      input.system.model ?? null,
    ),
  };
}
