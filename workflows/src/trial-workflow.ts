// One trial of one system on one single task:
//   prepare (inputs only) -> agent (container) -> collect (content-addressed)
//   -> evaluate (checks, then judge) -> record.
// One agent attempt per trial: the agent activity reports an agent failure as a
// result; only infrastructure errors (a lost worker, Docker down) are retried,
// and a retried agent activity re-attaches to the container it already started.
// Prepare runs on whichever host takes it (from the shared queue; since 'assay-one-hop-trial', as a
// local activity of the worker that takes the workflow task); everything after it runs on that
// host's own queue. A host gone before the trial was evaluated: it starts again, clean, elsewhere.
// Since 'assay-finish-trial', collect, evaluate and record are one host activity (finishTrial): three
// activities and four workflow tasks per trial instead of five and six. Since 'assay-one-hop-trial',
// prepare is a local activity (on the worker of the workflow task, hence its host) and the agent runs
// in the same host activity as the finish (runAgentAndFinish): one activity and two workflow tasks.
// Histories started before either keep their activities.
import {
  ActivityCancellationType,
  ApplicationFailure,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { AgentRun, PreparedWorkspace, TrialActivities } from '@assay/activities';
import { MAX_HOST_MOVES, unitUsageOf, type HostMove, type TrialRecord } from '@assay/core/pure';
import { trialKey, trialStageQuery, type TrialInput, type TrialOutcome } from './definitions.js';
import { HARBOR_STEPS_PATCH, runHarborSteps } from './harbor-steps.js';
import { hostLostReason, onHost, showHost } from './host-routing.js';

/**
 * Since 'assay-one-hop-trial': prepare is a local activity and the agent, collect, evaluate and
 * record are one host activity (runAgentAndFinish): one activity and two workflow tasks per trial.
 */
const ONE_HOP_PATCH = 'assay-one-hop-trial';

export async function trialWorkflow(input: TrialInput): Promise<TrialOutcome> {
  let stage = 'preparing';
  setHandler(trialStageQuery, () => stage);
  const key = trialKey(input.system.id, input.taskId, input.trial);
  const shared = trialActivities(input, undefined);
  const moves: HostMove[] = [];
  if (patched('assay-finish-trial')) {
    const record = await finishedTrial(input, moves, (s) => (stage = s));
    stage = 'done';
    return outcomeOf(key, input, record);
  }
  let attempt: Attempt | null = null;
  while (attempt === null) {
    stage = 'preparing';
    // One workspace per run and move: a trial that comes back to a host it left starts clean there too.
    const prepared = await shared.quick.prepareWorkspace(input, { key: `${workflowInfo().runId}:${moves.length}` });
    const last = moves.at(-1);
    if (last) last.to = prepared.hostId ?? null;
    showHost(prepared.hostId);
    attempt = await attemptOnHost(input, prepared, moves, (s) => (stage = s));
  }
  stage = 'recording';
  const record = await recordOnHost(input, attempt, moves);
  stage = 'done';
  return outcomeOf(key, input, record);
}

/** The record, on the host, which also releases its work volume; a host gone by now: anywhere (it needs none). */
async function recordOnHost(input: TrialInput, attempt: Attempt, moves: HostMove[]): Promise<TrialRecord> {
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
 * Prepare, agent, then finishTrial on the workspace's host, moving while a host is lost. The stage
 * query says 'evaluating' for all of finishTrial (collect and record are its short ends).
 */
async function finishedTrial(
  input: TrialInput,
  moves: HostMove[],
  setStage: (stage: string) => void,
): Promise<TrialRecord> {
  const shared = trialActivities(input, undefined);
  for (;;) {
    setStage('preparing');
    const oneHop = patched(ONE_HOP_PATCH);
    const placementKey = { key: `${workflowInfo().runId}:${moves.length}` };
    const workspace = oneHop
      ? await localActivities().prepareWorkspace(input, placementKey)
      : await shared.quick.prepareWorkspace(input, placementKey);
    const last = moves.at(-1);
    if (last) last.to = workspace.hostId ?? null;
    showHost(workspace.hostId);
    // A multi-step Harbor task: its steps as on main (harbor-steps.ts), then the record on its own.
    if (workspace.harborSteps) {
      const attempt = await attemptOnHost(input, workspace, moves, setStage);
      if (attempt === null) continue;
      setStage('recording');
      return recordOnHost(input, attempt, moves);
    }
    if (oneHop) {
      const record = await agentAndFinishOnHost(input, workspace, moves, setStage);
      if (record === null) continue;
      return record;
    }
    const run = await agentOnHost(input, workspace, moves, setStage);
    if (run === null) continue;
    setStage('evaluating');
    const host = trialActivities(input, workspace.hostId);
    const placement = workspace.hostId ? { placement: { host: workspace.hostId, moves: [...moves] } } : {};
    const record = await runOnHost(
      input,
      workspace.hostId,
      () => host.finish.finishTrial({ trial: input, workspace, run, ...placement }),
      async (lost, hostId) => {
        // Lost after it wrote the record (while releasing the volume, or before it could answer): done.
        const written = await shared.quick.findTrialRecord({ trial: input, run });
        if (written) return written;
        return noteMove(moves, hostId, `${lost} after the agent finished there`);
      },
    );
    if (record !== null) return record;
  }
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
  // A fresh container after a move: one left by the agent on the lost host is not this attempt's.
  const containerKey = moves.length > 0 ? { containerKey: `${workflowId}:move-${moves.length}` } : {};
  const placement = workspace.hostId ? { placement: { host: workspace.hostId, moves: [...moves] } } : {};
  setStage('agent');
  return runOnHost(
    input,
    workspace.hostId,
    () =>
      trialActivities(input, workspace.hostId).agentAndFinish.runAgentAndFinish({
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

/** The agent on the workspace's host; null when that host was lost first (noted in `moves`). */
async function agentOnHost(
  input: TrialInput,
  workspace: PreparedWorkspace,
  moves: HostMove[],
  setStage: (stage: string) => void,
): Promise<AgentRun | null> {
  const { workflowId } = workflowInfo();
  setStage('agent');
  return runOnHost(
    input,
    workspace.hostId,
    () =>
      trialActivities(input, workspace.hostId).agent.runAgent({
        trial: input,
        workspace,
        workflowId,
        ...(moves.length > 0 ? { containerKey: `${workflowId}:move-${moves.length}` } : {}),
      }),
    (lost, hostId) => noteMove(moves, hostId, lost),
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

type TrialActivityResult<K extends keyof TrialActivities> = Awaited<ReturnType<TrialActivities[K]>>;

interface Attempt {
  workspace: PreparedWorkspace;
  run: AgentRun;
  deliverables: TrialActivityResult<'collectDeliverables'>;
  evaluation: TrialActivityResult<'evaluateTrial'>;
}

/**
 * Agent, collect and evaluate on the workspace's host. Null when that host is gone first (noted in
 * `moves`): the trial starts again, clean, elsewhere. That includes a host lost after its agent
 * finished but before the outputs were collected and evaluated, since they were only there.
 */
async function attemptOnHost(
  input: TrialInput,
  workspace: PreparedWorkspace,
  moves: HostMove[],
  setStage: (stage: string) => void,
): Promise<Attempt | null> {
  const { workflowId } = workflowInfo();
  const host = trialActivities(input, workspace.hostId);
  let stage = 'agent';
  const attempt = async (): Promise<Attempt> => {
    setStage(stage);
    // A multi-step Harbor task runs its steps in order (harbor-steps.ts); earlier histories never had one.
    if (workspace.harborSteps && patched(HARBOR_STEPS_PATCH)) {
      const containerKey = moves.length > 0 ? { containerKey: `${workflowId}:move-${moves.length}` } : {};
      const ctx = { workflowId, setStage, ...containerKey };
      return { workspace, ...(await runHarborSteps(input, workspace, workspace.harborSteps, host, ctx)) };
    }
    const run = await host.agent.runAgent({
      trial: input,
      workspace,
      workflowId,
      // A fresh container after a move: one left by the agent on the lost host is not this attempt's.
      ...(moves.length > 0 ? { containerKey: `${workflowId}:move-${moves.length}` } : {}),
    });
    setStage((stage = 'collecting'));
    const deliverables = await host.quick.collectDeliverables({ trial: input, workspace });
    setStage((stage = 'evaluating'));
    const evaluation = await host.verifier.evaluateTrial({ trial: input, workspace, deliverables });
    return { workspace, run, deliverables, evaluation };
  };
  return runOnHost(input, workspace.hostId, attempt, (lost, hostId) =>
    noteMove(moves, hostId, stage === 'agent' ? lost : `${lost} after the agent finished there`),
  );
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
  // Collect and record are quick; evaluation may take the verifier's whole limit (slow judge calls).
  const finish: ActivityOptions = {
    ...verifier,
    startToCloseTimeout: `${Math.ceil(input.limits.verifierSeconds) + 600}s`,
  };
  // Agent and finish in one activity: the agent's retries and cancellation, both limits.
  const agentAndFinish: ActivityOptions = {
    ...agent,
    startToCloseTimeout: `${Math.ceil(input.limits.agentSeconds + input.limits.setupSeconds + input.limits.verifierSeconds + 900)}s`,
  };
  return {
    agentAndFinish: proxyActivities<TrialActivities>(onHost(agentAndFinish, input, hostId)),
    finish: proxyActivities<TrialActivities>(onHost(finish, input, hostId)),
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
