// One trial of one system on one single task:
//   prepare (inputs only) -> agent (container) -> collect (content-addressed)
//   -> evaluate (checks, then judge) -> record.
// One agent attempt per trial: the agent activity reports an agent failure as a
// result; only infrastructure errors (a lost worker, Docker down) are retried,
// and a retried agent activity re-attaches to the container it already started.
// Prepare runs on the shared queue, on whichever host takes it; everything after it runs on that
// host's own queue. A host gone before its agent finished: the trial starts again, clean, elsewhere.
import {
  ActivityCancellationType,
  ApplicationFailure,
  proxyActivities,
  setHandler,
  workflowInfo,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { AgentRun, PreparedWorkspace, TrialActivities } from '@assay/activities';
import { MAX_HOST_MOVES, unitUsageOf, type HostMove } from '@assay/core';
import { trialKey, trialStageQuery, type TrialInput, type TrialOutcome } from './definitions.js';
import { hostLostReason, onHost, showHost } from './host-routing.js';

export async function trialWorkflow(input: TrialInput): Promise<TrialOutcome> {
  let stage = 'preparing';
  setHandler(trialStageQuery, () => stage);
  const key = trialKey(input.system.id, input.taskId, input.trial);
  const shared = trialActivities(input, undefined);
  const moves: HostMove[] = [];
  let attempt: { workspace: PreparedWorkspace; run: AgentRun } | null = null;
  while (attempt === null) {
    stage = 'preparing';
    // One workspace per run and move: a trial that comes back to a host it left starts clean there too.
    const prepared = await shared.quick.prepareWorkspace(input, { key: `${workflowInfo().runId}:${moves.length}` });
    const last = moves.at(-1);
    if (last) last.to = prepared.hostId ?? null;
    showHost(prepared.hostId);
    stage = 'agent';
    const agentRun = await runAgentOnHost(input, prepared, moves);
    if (agentRun) attempt = { workspace: prepared, run: agentRun };
  }
  const { workspace, run } = attempt;
  const host = trialActivities(input, workspace.hostId);
  // The agent's outputs are only on its host: one gone now cannot be evaluated elsewhere (infra failure).
  const lostAfterAgent = (err: unknown): never => {
    const lost = workspace.hostId ? hostLostReason(err, workspace.hostId, input) : null;
    if (lost) throw ApplicationFailure.nonRetryable(`${lost} after the agent finished there`, 'HostLost');
    throw err;
  };
  stage = 'collecting';
  const deliverables = await host.quick.collectDeliverables({ trial: input, workspace }).catch(lostAfterAgent);
  stage = 'evaluating';
  const evaluation = await host.verifier.evaluateTrial({ trial: input, workspace, deliverables }).catch(lostAfterAgent);
  stage = 'recording';
  const placement = workspace.hostId ? { placement: { host: workspace.hostId, moves } } : {};
  const recordArgs = { trial: input, run, deliverables, evaluation, ...placement };
  // On the host, which also releases its work volume; a host gone by now: anywhere (the record needs none).
  const record = await host.quick.recordTrial(recordArgs).catch((err: unknown) => {
    if (!workspace.hostId || !hostLostReason(err, workspace.hostId, input)) throw err;
    return shared.quick.recordTrial(recordArgs);
  });
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

/** The agent's run on the workspace's host; null when that host is gone and the trial moves (noted in `moves`). */
async function runAgentOnHost(input: TrialInput, workspace: PreparedWorkspace, moves: HostMove[]) {
  const { workflowId } = workflowInfo();
  const host = trialActivities(input, workspace.hostId);
  try {
    return await host.agent.runAgent({
      trial: input,
      workspace,
      workflowId,
      // A fresh container after a move: one left by the agent on the lost host is not this attempt's.
      ...(moves.length > 0 ? { containerKey: `${workflowId}:move-${moves.length}` } : {}),
    });
  } catch (err) {
    const lost = workspace.hostId ? hostLostReason(err, workspace.hostId, input) : null;
    if (!lost || !workspace.hostId) throw err;
    if (moves.length >= MAX_HOST_MOVES)
      throw ApplicationFailure.nonRetryable(`trial moved host ${moves.length} times, stopped: ${lost}`, 'HostsLost');
    moves.push({ from: workspace.hostId, to: null, reason: lost, at: new Date().toISOString() });
    return null;
  }
}

/** The trial's activities on the shared queue (no host) or on one host's queue. */
function trialActivities(input: TrialInput, hostId: string | undefined) {
  const quick: ActivityOptions = {
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: `${input.heartbeatSeconds}s`,
    retry: { maximumAttempts: 5, initialInterval: '2s' },
  };
  const agent: ActivityOptions = {
    startToCloseTimeout: `${Math.ceil(input.limits.agentSeconds + input.limits.setupSeconds + 300)}s`,
    heartbeatTimeout: `${input.heartbeatSeconds}s`,
    retry: { maximumAttempts: 10, initialInterval: '2s', nonRetryableErrorTypes: ['HarnessNotAvailable'] },
    // Cancelled (`assay cancel`, `pause --now`): the workflow ends only once the container is gone.
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  };
  const verifier: ActivityOptions = {
    startToCloseTimeout: `${Math.ceil(input.limits.verifierSeconds)}s`,
    heartbeatTimeout: `${input.heartbeatSeconds}s`,
    retry: { maximumAttempts: 5, initialInterval: '5s' },
  };
  return {
    quick: proxyActivities<TrialActivities>(onHost(quick, input, hostId)),
    agent: proxyActivities<TrialActivities>(onHost(agent, input, hostId)),
    verifier: proxyActivities<TrialActivities>(onHost(verifier, input, hostId)),
  };
}
