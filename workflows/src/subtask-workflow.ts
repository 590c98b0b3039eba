// One subtask of a project: the agent continues its session in the persistent
// workspace, the submission is preserved as a content-addressed checkpoint, and
// the checkpoint is evaluated against that subtask's criteria. If evaluation
// keeps failing, the checkpoint is kept and recorded as unjudged, never redone.
import { ActivityCancellationType, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { ProjectActivities } from '@assay/activities';
import { subtaskStageQuery, type SubtaskInput, type SubtaskOutcome } from './definitions.js';
import { failureMessage } from './failure-message.js';

export async function subtaskWorkflow(input: SubtaskInput): Promise<SubtaskOutcome> {
  const { project } = input;
  let stage = 'agent';
  setHandler(subtaskStageQuery, () => stage);
  const quick = proxyActivities<ProjectActivities>({
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: `${project.heartbeatSeconds}s`,
    retry: { maximumAttempts: 5, initialInterval: '2s' },
  });
  const agent = proxyActivities<ProjectActivities>({
    startToCloseTimeout: `${Math.ceil(project.limits.agentSeconds + project.limits.setupSeconds + 300)}s`,
    heartbeatTimeout: `${project.heartbeatSeconds}s`,
    retry: { maximumAttempts: 10, initialInterval: '2s', nonRetryableErrorTypes: ['HarnessNotAvailable'] },
    // Cancelled (`assay cancel`, `pause --now`): the workflow ends only once the container is gone.
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  });
  const verifier = proxyActivities<ProjectActivities>({
    startToCloseTimeout: `${Math.ceil(project.limits.verifierSeconds)}s`,
    heartbeatTimeout: `${project.heartbeatSeconds}s`,
    retry: { maximumAttempts: 5, initialInterval: '5s' },
  });

  const run = await agent.runSubtaskAgent({ subtask: input, workflowId: workflowInfo().workflowId });
  stage = 'snapshot';
  const snapshot = await quick.snapshotCheckpoint({ subtask: input });
  stage = 'evaluating';
  let evaluation;
  try {
    evaluation = await verifier.evaluateCheckpoint({ subtask: input, snapshot });
  } catch (err) {
    evaluation = await quick.markCheckpointUnjudged({
      subtask: input,
      snapshot,
      error: failureMessage(err),
    });
  }
  stage = 'recording';
  await quick.recordCheckpoint({ subtask: input, run, snapshot, evaluation });
  stage = 'done';
  return {
    subtaskId: input.subtaskId,
    agentStatus: run.timedOut ? 'agent-timeout' : run.exitCode === 0 ? 'completed' : 'agent-failed',
    score: evaluation.score,
    unjudged: evaluation.unjudged.length,
  };
}
