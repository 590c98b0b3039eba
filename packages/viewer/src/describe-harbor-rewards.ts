// A Harbor trial's verifier rewards as the trial page shows them: every named reward as written, which of them
// the trial's score was made of, and why there is none when there is none. Pure; null for assay's rubric tasks.
import type { HarborVerifierRun } from '@assay/core';

export interface HarborRewardsView {
  /** Every reward the verifier named, by key; `scored` marks those the trial's score was made of. */
  rewards: { key: string; value: number; scored: boolean }[];
  /** The reward the trial was scored by (0–1 as written), null when there is none. */
  reward: number | null;
  /** How that reward was formed: "the key named reward", "the only key (x)", "mean of a, b", or that there is none. */
  scoredBy: string;
  file: HarborVerifierRun['file'];
  /** The verifier's reason when there is no reward. */
  reason: string | null;
}

export function describeHarborRewards(verifier: HarborVerifierRun | undefined): HarborRewardsView | null {
  if (!verifier) return null;
  // meanOf is absent in records made before it (and whenever a key was taken).
  const meanOf = verifier.meanOf ?? [];
  const entries = Object.entries(verifier.rewards).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const keys = entries.map(([key]) => key);
  return {
    rewards: entries.map(([key, value]) => ({
      key,
      value,
      scored: key === verifier.rewardKey || meanOf.includes(key),
    })),
    reward: verifier.reward,
    scoredBy: scoredByText(verifier, keys, meanOf),
    file: verifier.file,
    reason: verifier.reward === null ? verifier.reason : null,
  };
}

function scoredByText(v: HarborVerifierRun, keys: readonly string[], meanOf: readonly string[]): string {
  if (v.rewardKey === 'reward') return 'the key named reward';
  if (v.rewardKey !== null) return `the only key (${v.rewardKey})`;
  if (meanOf.length > 0) return `mean of ${meanOf.join(', ')}`;
  // Records made before several keys were averaged: no score when none of them was `reward`.
  if (keys.length > 1) return 'no score: several keys, none named reward';
  return 'no reward';
}
