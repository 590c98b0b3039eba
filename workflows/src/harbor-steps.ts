// A multi-step Harbor task (`[[steps]]`) inside one trial: each step's agent continues from the previous
// step's snapshot (the agent's finished container, committed), then the step's verifier runs on its own
// snapshot. Each activity keeps its result in the store and in this history, so a worker killed during step k
// resumes at step k (re-attaching to its container) and no finished step, agent or verifier, runs again.
// A step below its min_reward, or whose verifier gave no reward, ends the trial there, as in Harbor.
import { deprecatePatch } from '@temporalio/workflow';
import type { AgentRun, PreparedWorkspace, TrialActivities } from '@assay/activities';
import {
  minRewardFailure,
  multiStepVerifierOf,
  rewardScoreOf,
  type HarborStepRecord,
  type HarborStepsPlan,
  type HarborVerifierRun,
  type TrialInput,
  type Usage,
} from '@assay/core/pure';

/**
 * Deprecated (docs/architecture.md, "Changing a workflow"); the next release removes the calls.
 * 'harbor-multi-step': the step loop; 'harbor-step-setup': a step whose workdir/setup.sh failed (its
 * runAgent result says so) ends the trial without its verifier.
 */
const HARBOR_STEPS_PATCH = 'harbor-multi-step';
const HARBOR_STEP_SETUP_PATCH = 'harbor-step-setup';

type Result<K extends keyof TrialActivities> = Awaited<ReturnType<TrialActivities[K]>>;

interface StepActivities {
  agent: Pick<TrialActivities, 'runAgent'>;
  verifier: Pick<TrialActivities, 'evaluateTrial'>;
}

export async function runHarborSteps(
  input: TrialInput,
  workspace: PreparedWorkspace,
  plan: HarborStepsPlan,
  host: StepActivities,
  /** containerKey: set once the trial has moved host, so every step runs again there instead of reusing the lost host's. */
  ctx: { workflowId: string; containerKey?: string; setStage: (stage: string) => void },
): Promise<{ run: AgentRun; deliverables: []; evaluation: Result<'evaluateTrial'> }> {
  deprecatePatch(HARBOR_STEPS_PATCH);
  const runs: AgentRun[] = [];
  const steps: HarborStepRecord[] = [];
  const verifiers: HarborVerifierRun[] = [];
  let last: Result<'evaluateTrial'> | null = null;
  for (const [i, step] of plan.steps.entries()) {
    const index = i + 1;
    // A step with a workdir/ uploads it and runs its setup.sh first, inside the same activity.
    ctx.setStage(`step ${index}/${plan.steps.length} ${step.name}: agent`);
    const key = ctx.containerKey ? { containerKey: ctx.containerKey } : {};
    const run = await host.agent.runAgent({ trial: input, workspace, workflowId: ctx.workflowId, step: index, ...key });
    const setupFailure = setupFailureOf(run);
    if (setupFailure !== null) {
      deprecatePatch(HARBOR_STEP_SETUP_PATCH);
      // As Harbor: the step's exception, no agent, no verifier; the steps after it never run.
      const verifier = notVerified(setupFailure);
      runs.push(run);
      verifiers.push(verifier);
      steps.push(stepRecordOf(step.name, run, verifier, { by: 'setup', reason: setupFailure }));
      break;
    }
    ctx.setStage(`step ${index}/${plan.steps.length} ${step.name}: verifier`);
    last = await host.verifier.evaluateTrial({ trial: input, workspace, deliverables: [], step: index, ...key });
    const verifier = last.verifier;
    if (!verifier) throw new Error(`step ${step.name}: the verifier returned no run`);
    runs.push(run);
    verifiers.push(verifier);
    const aborted = abortOf(verifier, step.minReward);
    steps.push(stepRecordOf(step.name, run, verifier, aborted));
    if (aborted) break;
  }
  if (runs.length === 0) throw new Error('a multi-step task without steps');
  // A Harbor task has no deliverables or rubric: what its verifier's evaluation holds besides the reward.
  const base = last ?? {
    verdicts: [],
    formatCompliance: { required: false, compliant: true, missing: [], wrongType: [] },
  };
  const evaluation = { ...base, verifier: multiStepVerifierOf(verifiers, plan.strategy), steps };
  return { run: combinedRun(runs), deliverables: [], evaluation };
}

/** The step's setup failure (workdir/setup.sh), or null: none, or no workdir. */
function setupFailureOf(run: AgentRun): string | null {
  const { setup } = run;
  if (!setup || (!setup.timedOut && (setup.exitCode === null || setup.exitCode === 0))) return null;
  return setup.reason ?? `setup.sh exited with code ${setup.exitCode}`;
}

/**
 * The verifier entry of a step that never got to its verifier: no reward, so the mean leaves it out and
 * under `final` the trial has none, as Harbor's step without a verifier result.
 */
function notVerified(why: string): HarborVerifierRun {
  const reason = `not run: ${why}`;
  return {
    rewards: {},
    rewardKey: null,
    reward: null,
    file: null,
    exitCode: null,
    timedOut: false,
    durationSeconds: 0,
    reason,
  };
}

/** Harbor stops after a step whose verifier gave nothing, or whose rewards miss its min_reward. */
function abortOf(verifier: HarborVerifierRun, minReward: HarborStepsPlan['steps'][number]['minReward']) {
  if (Object.keys(verifier.rewards).length === 0)
    return { by: 'no-verifier-result' as const, reason: verifier.reason ?? 'the verifier wrote no reward' };
  const failure = minRewardFailure(verifier.rewards, minReward);
  return failure === null ? null : { by: 'min_reward' as const, reason: failure };
}

function stepRecordOf(
  name: string,
  run: AgentRun,
  verifier: HarborVerifierRun,
  aborted: HarborStepRecord['aborted'],
): HarborStepRecord {
  const { exitCode, timedOut, reason, startedAt, endedAt, durationSeconds, containerAttempts, setup } = run;
  const restarted = (run as AgentRun & { restarted?: boolean }).restarted === true;
  return {
    name,
    score: rewardScoreOf(verifier.reward),
    source: 'verifier',
    agent: { exitCode, timedOut, reason, startedAt, endedAt, durationSeconds, containerAttempts, restarted },
    verifier,
    ...(setup ? { setup } : {}),
    aborted,
  };
}

/** The trial's agent as its record shows it: from the first step's start to the last's end, the first failure. */
function combinedRun(runs: AgentRun[]): AgentRun {
  const [first] = runs;
  const last = runs.at(-1);
  if (!first || !last) throw new Error('no step ran');
  const failed = runs.find((r) => r.timedOut || r.exitCode !== 0) ?? last;
  const usages = runs.flatMap((r) => (r.usage ? [r.usage] : []));
  return {
    exitCode: failed.exitCode,
    timedOut: runs.some((r) => r.timedOut),
    reason: failed.reason,
    startedAt: first.startedAt,
    endedAt: last.endedAt,
    durationSeconds: runs.reduce((sum, r) => sum + r.durationSeconds, 0),
    containerAttempts: Math.max(...runs.map((r) => r.containerAttempts)),
    usage: usages.length > 0 ? sumUsage(usages) : null,
  };
}

function sumUsage(usages: Usage[]): Usage {
  const add = (pick: (u: Usage) => number | null): number | null =>
    usages.some((u) => pick(u) === null) ? null : usages.reduce((sum, u) => sum + (pick(u) ?? 0), 0);
  return {
    inputTokens: add((u) => u.inputTokens) ?? 0,
    outputTokens: add((u) => u.outputTokens) ?? 0,
    cachedInputTokens: add((u) => u.cachedInputTokens) ?? 0,
    costUsd: add((u) => u.costUsd),
    turns: add((u) => u.turns),
  };
}
