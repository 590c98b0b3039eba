// Harbor multi-step trials (harbor/trial/multi_step.py), pure so the trial workflow can decide with them:
// a step's min_reward gate, and the trial's rewards from its steps' by multi_step_reward_strategy.
import { scoredRewardOf } from './harbor-reward.js';
import type { HarborVerifierRun } from './trial-record.js';
import type { HARBOR_STEP_STRATEGIES } from './vocabulary.js';

export type HarborStepStrategy = (typeof HARBOR_STEP_STRATEGIES)[number];

/** What the workflow needs of a step to run it in order and gate on it. */
export interface HarborStepPlan {
  name: string;
  minReward: number | Record<string, number> | null;
}

export interface HarborStepsPlan {
  strategy: HarborStepStrategy;
  steps: HarborStepPlan[];
}

/** Harbor's gate: a number applies to `reward`; a missing reward (or no verifier result) counts as -inf. */
export function minRewardFailure(
  rewards: Record<string, number> | null,
  minReward: HarborStepPlan['minReward'],
): string | null {
  if (minReward === null) return null;
  const thresholds = typeof minReward === 'number' ? { reward: minReward } : minReward;
  for (const [key, threshold] of Object.entries(thresholds)) {
    const actual = rewards?.[key];
    if (actual === undefined) return `${key} missing, below min_reward ${threshold}`;
    if (actual < threshold) return `${key}=${actual} below min_reward ${threshold}`;
  }
  return null;
}

const hasResult = (v: HarborVerifierRun): boolean => Object.keys(v.rewards).length > 0;

/**
 * The trial's rewards from the steps that ran. `mean`: per named reward, the mean over steps that have a
 * verifier result (a key a step lacks counts 0 there); `final`: the last step's as they are.
 */
export function aggregateStepRewards(
  runs: HarborVerifierRun[],
  strategy: HarborStepStrategy,
): Record<string, number> | null {
  if (strategy === 'final') {
    const last = runs.at(-1);
    return last && hasResult(last) ? { ...last.rewards } : null;
  }
  const valid = runs.filter(hasResult).map((r) => r.rewards);
  if (valid.length === 0) return null;
  const keys = [...new Set(valid.flatMap((r) => Object.keys(r)))].sort();
  return Object.fromEntries(keys.map((k) => [k, valid.reduce((sum, r) => sum + (r[k] ?? 0), 0) / valid.length]));
}

/** The trial's verifier entry of a multi-step trial: the aggregated rewards, the steps' runs summed up. */
export function multiStepVerifierOf(runs: HarborVerifierRun[], strategy: HarborStepStrategy): HarborVerifierRun {
  const rewards = aggregateStepRewards(runs, strategy);
  const last = runs.at(-1);
  const scored = scoredRewardOf(rewards ?? {});
  const reason = rewards === null ? `no step's verifier gave a reward (${strategy})` : null;
  return {
    rewards: rewards ?? {},
    ...scored,
    file: last?.file ?? null,
    exitCode: last?.exitCode ?? null,
    timedOut: runs.some((r) => r.timedOut),
    durationSeconds: runs.reduce((sum, r) => sum + r.durationSeconds, 0),
    reason,
  };
}

/** A reward as Harbor's 0–100 score in assay's records (clipped); no reward: no score, never 0. */
export function rewardScoreOf(reward: number | null): number | null {
  return reward === null ? null : Math.min(1, Math.max(0, reward)) * 100;
}
