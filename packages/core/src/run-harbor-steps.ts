// Harbor's multi-step trial (harbor/trial/multi_step.py) over injected step runners, so that the host
// activity (activities/src/harbor/harbor-task-runtime.ts) and, for histories of the release before it, the
// trial workflow apply the same rules: steps in order, each step's agent then its verifier; a step whose
// workdir/setup.sh failed ends the trial without its verifier; a step whose verifier gave nothing, or whose
// rewards miss its min_reward, ends it after its verifier. No I/O here: the runners do it.
import { minRewardFailure, multiStepVerifierOf, rewardScoreOf, type HarborStepsPlan } from './harbor-steps.js';
import type { HarborStepRecord, HarborStepSetup, HarborVerifierRun, Usage } from './trial-record.js';

/** What every agent run holds, and all the loop reads of a step's (the activities' AgentRun adds the rest). */
export interface StepAgentRun {
  exitCode: number | null;
  timedOut: boolean;
  reason: string | null;
  startedAt: string;
  endedAt: string;
  durationSeconds: number;
  containerAttempts: number;
  usage: Usage | null;
  /** A Harbor step with a workdir/: its setup, run before the agent (a failed one: the agent never ran). */
  setup?: HarborStepSetup;
}

export interface StepRunners<E extends { verifier?: HarborVerifierRun }> {
  /** Step `index` (1-based): its agent. */
  agent(index: number, name: string): Promise<StepAgentRun>;
  /** Step `index`: its verifier's evaluation. */
  verifier(index: number, name: string): Promise<E>;
  /** A step's setup failed: called before the trial ends there (the workflow marks its patch). */
  onSetupFailure?(): void;
}

export interface StepsOutcome<E> {
  /** The trial's agent as its record shows it: the first step's start to the last's end, the first failure. */
  run: StepAgentRun;
  /** The last verifier evaluation that ran (null: the first step's setup failed). */
  last: E | null;
  /** The trial's verifier entry: the steps' rewards aggregated by the plan's strategy. */
  verifier: HarborVerifierRun;
  steps: HarborStepRecord[];
}

export async function runHarborSteps<E extends { verifier?: HarborVerifierRun }>(
  plan: HarborStepsPlan,
  runners: StepRunners<E>,
): Promise<StepsOutcome<E>> {
  const runs: StepAgentRun[] = [];
  const steps: HarborStepRecord[] = [];
  const verifiers: HarborVerifierRun[] = [];
  let last: E | null = null;
  for (const [i, step] of plan.steps.entries()) {
    const index = i + 1;
    const run = await runners.agent(index, step.name);
    const setupFailure = setupFailureOf(run);
    if (setupFailure !== null) {
      runners.onSetupFailure?.();
      // As Harbor: the step's exception, no agent, no verifier; the steps after it never run.
      const verifier = notVerified(setupFailure);
      runs.push(run);
      verifiers.push(verifier);
      steps.push(stepRecordOf(step.name, run, verifier, { by: 'setup', reason: setupFailure }));
      break;
    }
    last = await runners.verifier(index, step.name);
    const verifier = last.verifier;
    if (!verifier) throw new Error(`step ${step.name}: the verifier returned no run`);
    runs.push(run);
    verifiers.push(verifier);
    const aborted = abortOf(verifier, step.minReward);
    steps.push(stepRecordOf(step.name, run, verifier, aborted));
    if (aborted) break;
  }
  if (runs.length === 0) throw new Error('a multi-step task without steps');
  return { run: combinedRun(runs), last, verifier: multiStepVerifierOf(verifiers, plan.strategy), steps };
}

/** The step's setup failure (workdir/setup.sh), or null: none, or no workdir. */
function setupFailureOf(run: StepAgentRun): string | null {
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
  run: StepAgentRun,
  verifier: HarborVerifierRun,
  aborted: HarborStepRecord['aborted'],
): HarborStepRecord {
  const { exitCode, timedOut, reason, startedAt, endedAt, durationSeconds, containerAttempts, setup } = run;
  const restarted = (run as StepAgentRun & { restarted?: boolean }).restarted === true;
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

function combinedRun(runs: StepAgentRun[]): StepAgentRun {
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
