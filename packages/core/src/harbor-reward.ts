// The one reward a Harbor trial is scored by, among the named rewards its verifier wrote. Harbor itself has no
// single rule: its metrics report the mean per key, its uploader takes `reward` or the only key, its hub the
// first key by name. assay scores `reward` when the verifier names it, else the only key, else the mean of all
// the keys (a reward.json such as {"correctness": 1, "performance": 0.5} scores 0.75); every key is still kept
// and reported on its own (the report's "Harbor rewards by key"). Pure.
import type { HarborVerifierRun } from './trial-record.js';

export type ScoredReward = Pick<HarborVerifierRun, 'rewardKey' | 'reward' | 'meanOf'>;

export function scoredRewardOf(rewards: Readonly<Record<string, number>>): ScoredReward {
  const keys = Object.keys(rewards).sort();
  const only = keys.length === 1 ? keys[0] : undefined;
  const key = 'reward' in rewards ? 'reward' : only;
  if (key !== undefined) return { rewardKey: key, reward: rewards[key] ?? null };
  if (keys.length === 0) return { rewardKey: null, reward: null };
  const mean = keys.reduce((sum, k) => sum + (rewards[k] ?? 0), 0) / keys.length;
  return { rewardKey: null, reward: mean, meanOf: keys };
}
