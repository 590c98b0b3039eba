// One trial of one system on one single task:
//   prepare (inputs only) -> agent (container) -> collect (content-addressed)
//   -> evaluate (checks, then judge) -> record.
// One agent attempt per trial: the agent activity reports an agent failure as a result; only
// infrastructure errors (a lost worker, Docker down) are retried, and a retried agent activity
// re-attaches to the container it already started.
// Prepare is a local activity, so it runs on the worker of the workflow task and hence on its host;
// the agent, collect, evaluate and record are then one activity on that host's own queue
// (runAgentAndFinish): one activity and two workflow tasks per trial, a multi-step task's steps
// included. A host gone before the trial was evaluated: it starts again, clean, elsewhere.
// Workflow changes follow the patch policy in docs/architecture.md ("Changing a workflow").
import {
  ActivityCancellationType,
  ApplicationFailure,
  deprecatePatch,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { PreparedWorkspace, TrialActivities } from '@assay/activities';
import { MAX_HOST_MOVES, unitUsageOf, type HarborStepsPlan, type HostMove, type TrialRecord } from '@assay/core/pure';
import { trialKey, trialStageQuery, type TrialInput, type TrialOutcome } from './definitions.js';
import { runStepsFromWorkflow } from './harbor-steps.js';
import { hostLostReason, onHost, showHost } from './host-routing.js';

/**
 * Deprecated (docs/architecture.md, "Changing a workflow"): every history of the release before this
 * one took these paths, so only their markers remain; the next release removes the calls.
 * 'assay-finish-trial': collect, evaluate and record as one host activity; 'assay-one-hop-trial':
 * prepare local and the agent in that activity too.
 */
const FINISH_TRIAL_PATCH = 'assay-finish-trial';
const ONE_HOP_PATCH = 'assay-one-hop-trial';

/**
 * Since 'assay-steps-on-host', a multi-step task's steps run inside runAgentAndFinish as any trial's agent
 * does (core's runHarborSteps in the Harbor task runtime); before it, from the workflow (harbor-steps.ts).
 */
const STEPS_ON_HOST_PATCH = 'assay-steps-on-host';

export async function trialWorkflow(input: TrialInput): Promise<TrialOutcome> {
  let stage = 'preparing';
  setHandler(trialStageQuery, () => stage);
  const key = trialKey(input.system.id, input.taskId, input.trial);
  deprecatePatch(FINISH_TRIAL_PATCH);
  const record = await finishedTrial(input, [], (s) => (stage = s));
  stage = 'done';
  return outcomeOf(key, input, record);
}

/**
 * Prepare, then the rest on the workspace's host, moving while a host is lost. The stage query says
 * 'agent' for all of runAgentAndFinish (collect, evaluate and record follow the agent inside it).
 */
async function finishedTrial(
  input: TrialInput,
  moves: HostMove[],
  setStage: (stage: string) => void,
): Promise<TrialRecord> {
  for (;;) {
    setStage('preparing');
    deprecatePatch(ONE_HOP_PATCH);
    const placementKey = { key: `${workflowInfo().runId}:${moves.length}` };
    // One workspace per run and move: a trial that comes back to a host it left starts clean there too.
    const workspace = await localActivities().prepareWorkspace(input, placementKey);
    const last = moves.at(-1);
    if (last) last.to = workspace.hostId ?? null;
    showHost(workspace.hostId);
    // Histories of the release before 'assay-steps-on-host' ran a multi-step task's steps from here.
    const record =
      workspace.harborSteps && !patched(STEPS_ON_HOST_PATCH)
        ? await stepsOnHost(input, workspace, workspace.harborSteps, moves, setStage)
        : await agentAndFinishOnHost(input, workspace, moves, setStage);
    if (record !== null) return record;
  }
}

/** The record, on the host, which also releases its work volume; a host gone by now: anywhere (it needs none). */
async function recordOnHost(
  input: TrialInput,
  attempt: Awaited<ReturnType<typeof runStepsFromWorkflow>> & { workspace: PreparedWorkspace },
  moves: HostMove[],
): Promise<TrialRecord> {
  const { workspace, run, deliverables, evaluation } = attempt;
  const placement = workspace.hostId ? { placement: { host: workspace.hostId, moves } } : {};
  const recordArgs = { trial: input, run, deliverables, evaluation, ...placement };
  return runOnHost(
    input,
    workspace.hostId,
    () => trialActivities(input, workspace.hostId).quick.recordTrial(recordArgs),
    () => trialActivities(input, undefined).quick.recordTrial(recordArgs),
  );
}

function outcomeOf(key: string, input: TrialInput, record: TrialRecord): TrialOutcome {
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

/**
 * The agent, collect, evaluate and record in one activity on the workspace's host; null when that
 * host was lost before it wrote the record (noted in `moves`).
 */
async function agentAndFinishOnHost(
  input: TrialInput,
  workspace: PreparedWorkspace,
  moves: HostMove[],
  setStage: (stage: string) => void,
): Promise<TrialRecord | null> {
  const { workflowId } = workflowInfo();
  const containerKey = containerKeyOf(moves);
  const placement = workspace.hostId ? { placement: { host: workspace.hostId, moves: [...moves] } } : {};
  setStage('agent');
  return runOnHost(
    input,
    workspace.hostId,
    () =>
      trialActivities(input, workspace.hostId, workspace.harborSteps?.steps.length).agentAndFinish.runAgentAndFinish({
        trial: input,
        workspace,
        workflowId,
        ...containerKey,
        ...placement,
      }),
    async (lost, hostId) => {
      // Lost after it wrote the record (while releasing the volume, or before it could answer): done.
      const found = await trialActivities(input, undefined).quick.findTrialRecordOf({ trial: input, ...containerKey });
      if (found.record) return found.record;
      return noteMove(moves, hostId, found.agentFinished ? `${lost} after the agent finished there` : lost);
    },
  );
}

/**
 * `work` on the workspace's host; a failure meaning that host is gone goes to `onLost` (why, and
 * which host), whose answer is returned. Any other failure, or one with no host, is thrown.
 */
async function runOnHost<T, L>(
  input: TrialInput,
  hostId: string | undefined,
  work: () => Promise<T>,
  onLost: (lost: string, hostId: string) => L | Promise<L>,
): Promise<T | L> {
  try {
    return await work();
  } catch (err) {
    const lost = hostId ? hostLostReason(err, hostId, input) : null;
    if (!lost || !hostId) throw err;
    return onLost(lost, hostId);
  }
}

/**
 * A move away from a lost host (null: the trial starts again elsewhere), or the trial's end once
 * it has moved the most times allowed.
 */
function noteMove(moves: HostMove[], from: string, reason: string): null {
  if (moves.length >= MAX_HOST_MOVES)
    throw ApplicationFailure.nonRetryable(`trial moved host ${moves.length} times, stopped: ${reason}`, 'HostsLost');
  moves.push({ from, to: null, reason, at: new Date().toISOString() });
  return null;
}

/**
 * A multi-step Harbor task's steps on the workspace's host, then its record there. Null when that
 * host is gone before the record (noted in `moves`): the trial starts again, clean, elsewhere, since
 * each step's snapshot was only there.
 */
async function stepsOnHost(
  input: TrialInput,
  workspace: PreparedWorkspace,
  plan: HarborStepsPlan,
  moves: HostMove[],
  setStage: (stage: string) => void,
): Promise<TrialRecord | null> {
  const { workflowId } = workflowInfo();
  const host = trialActivities(input, workspace.hostId);
  setStage('agent');
  const ctx = { workflowId, setStage, ...containerKeyOf(moves) };
  const ran = await runOnHost(
    input,
    workspace.hostId,
    () => runStepsFromWorkflow(input, workspace, plan, host, ctx),
    (lost, hostId) => noteMove(moves, hostId, lost),
  );
  if (ran === null) return null;
  setStage('recording');
  return recordOnHost(input, { workspace, ...ran }, moves);
}

/** A fresh container after a move: one left by the agent on the lost host is not this attempt's. */
function containerKeyOf(moves: HostMove[]): { containerKey?: string } {
  return moves.length > 0 ? { containerKey: `${workflowInfo().workflowId}:move-${moves.length}` } : {};
}

/**
 * The trial's activities on the shared queue (no host) or on one host's queue; `steps`: how many agents
 * and verifiers runAgentAndFinish runs one after the other (a multi-step task's steps).
 */
function trialActivities(input: TrialInput, hostId: string | undefined, steps = 1) {
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
  // Agent and finish in one activity: the agent's retries and cancellation, both limits for each step.
  const { agentSeconds, setupSeconds, verifierSeconds } = input.limits;
  const agentAndFinish: ActivityOptions = {
    ...agent,
    startToCloseTimeout: `${Math.ceil(steps * (agentSeconds + setupSeconds + verifierSeconds) + 900)}s`,
  };
  return {
    agentAndFinish: proxyActivities<TrialActivities>(onHost(agentAndFinish, input, hostId)),
    quick: proxyActivities<TrialActivities>(onHost(quick, input, hostId)),
    agent: proxyActivities<TrialActivities>(onHost(agent, input, hostId)),
    verifier: proxyActivities<TrialActivities>(onHost(verifier, input, hostId)),
  };
}

/**
 * Prepare as a local activity, on the worker that runs this workflow task (so on its host): no
 * queue and no workflow task of its own. A worker lost during it loses the workflow task, whose
 * retry prepares again (idempotent for the placement) on whichever worker takes it.
 */
function localActivities() {
  return proxyLocalActivities<TrialActivities>({
    startToCloseTimeout: '10 minutes',
    retry: { maximumAttempts: 5, initialInterval: '2s' },
    localRetryThreshold: '10s',
  });
}
