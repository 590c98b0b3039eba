// One subtask of a project: the agent continues its session in the persistent
// workspace, the submission is preserved as a content-addressed checkpoint, and
// the checkpoint is evaluated against that subtask's criteria. If evaluation
// keeps failing, the checkpoint is kept and recorded as unjudged, never redone.
// The agent and the snapshot run on the host holding the workspace; evaluation and the record
// read only the preserved snapshot, so any host does them. A host gone before the snapshot
// ends this run as HostLost: the project moves and runs the subtask again elsewhere. Told to stop
// (`pause --now`) while its agent runs, the agent is stopped and the run ends as StoppedNow.
import {
  ActivityCancellationType,
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  proxyActivities,
  setHandler,
  workflowInfo,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { ProjectActivities } from '@assay/activities';
import {
  STOPPED_NOW,
  stopAgentSignal,
  subtaskStageQuery,
  type SubtaskInput,
  type SubtaskOutcome,
} from './definitions.js';
import { failureMessage } from './failure-message.js';
import { HOST_LOST, hostLostReason, onHost } from './host-routing.js';

export async function subtaskWorkflow(input: SubtaskInput): Promise<SubtaskOutcome> {
  const { project, hostId } = input;
  let stage = 'agent';
  setHandler(subtaskStageQuery, () => stage);
  const quick: ActivityOptions = {
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: `${project.heartbeatSeconds}s`,
    retry: { maximumAttempts: 5, initialInterval: '2s' },
  };
  const shared = proxyActivities<ProjectActivities>(quick);
  const onItsHost = proxyActivities<ProjectActivities>(onHost(quick, project, hostId));
  const agent = proxyActivities<ProjectActivities>(
    onHost(
      {
        startToCloseTimeout: `${Math.ceil(project.limits.agentSeconds + project.limits.setupSeconds + 300)}s`,
        heartbeatTimeout: `${project.heartbeatSeconds}s`,
        retry: { maximumAttempts: 10, initialInterval: '2s', nonRetryableErrorTypes: ['HarnessNotAvailable'] },
        // Cancelled (`assay cancel`, `pause --now`): the workflow ends only once the container is gone.
        cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
      },
      project,
      hostId,
    ),
  );
  const verifier = proxyActivities<ProjectActivities>({
    startToCloseTimeout: `${Math.ceil(project.limits.verifierSeconds)}s`,
    heartbeatTimeout: `${project.heartbeatSeconds}s`,
    retry: { maximumAttempts: 5, initialInterval: '5s' },
  });
  const hostLost = (err: unknown): never => {
    const lost = hostId ? hostLostReason(err, hostId, project) : null;
    throw lost ? ApplicationFailure.nonRetryable(lost, HOST_LOST) : err;
  };

  // Only the agent stops: a subtask past it (snapshot, evaluation) finishes and is recorded.
  const agentScope = new CancellationScope();
  let stopped = false;
  setHandler(stopAgentSignal, () => {
    if (stage !== 'agent' || stopped) return;
    stopped = true;
    agentScope.cancel();
  });
  let run;
  try {
    run = await agentScope.run(() => agent.runSubtaskAgent({ subtask: input, workflowId: workflowInfo().workflowId }));
  } catch (err) {
    if (!isCancellation(err)) return hostLost(err);
    // Its container is gone (the activity waited for that); the partial run is set aside later.
    const reason = stopped ? 'stopped by assay pause --now' : 'stopped by assay cancel';
    await CancellationScope.nonCancellable(() => shared.noteStoppedAgent({ subtask: input, reason }));
    throw stopped ? ApplicationFailure.nonRetryable(reason, STOPPED_NOW) : err;
  }
  stage = 'snapshot';
  const snapshot = await onItsHost.snapshotCheckpoint({ subtask: input }).catch(hostLost);
  stage = 'evaluating';
  let evaluation;
  try {
    evaluation = await verifier.evaluateCheckpoint({ subtask: input, snapshot });
  } catch (err) {
    evaluation = await shared.markCheckpointUnjudged({
      subtask: input,
      snapshot,
      error: failureMessage(err),
    });
  }
  stage = 'recording';
  await shared.recordCheckpoint({ subtask: input, run, snapshot, evaluation });
  stage = 'done';
  return {
    subtaskId: input.subtaskId,
    agentStatus: run.timedOut ? 'agent-timeout' : run.exitCode === 0 ? 'completed' : 'agent-failed',
    score: evaluation.score,
    unjudged: evaluation.unjudged.length,
  };
}
