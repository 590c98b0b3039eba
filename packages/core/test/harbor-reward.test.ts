// The one reward a Harbor trial is scored by: `reward` when named, else the only key, else the mean of the keys.
import { describe, expect, it } from 'vitest';
import { rewardScoreOf, scoredRewardOf } from '../src/index.js';

describe('scoredRewardOf', () => {
  it('scores `reward` when the verifier names it, whatever else it names', () => {
    expect(scoredRewardOf({ style: 1, reward: 0.25 })).toEqual({ rewardKey: 'reward', reward: 0.25 });
  });

  it('scores the only key, whatever its name', () => {
    expect(scoredRewardOf({ passed: 0 })).toEqual({ rewardKey: 'passed', reward: 0 });
  });

  it('scores the mean of several keys when none is `reward`, and names them', () => {
    const scored = scoredRewardOf({ performance: 0.5, correctness: 1 });
    expect(scored).toEqual({ rewardKey: null, reward: 0.75, meanOf: ['correctness', 'performance'] });
    expect(rewardScoreOf(scored.reward)).toBe(75);
    // Both 1 (a task published that way): a full score, not none.
    expect(rewardScoreOf(scoredRewardOf({ correctness: 1, performance: 1 }).reward)).toBe(100);
  });

  it('gives no reward (never 0) when there is none', () => {
    expect(scoredRewardOf({})).toEqual({ rewardKey: null, reward: null });
    expect(rewardScoreOf(null)).toBeNull();
  });
});
