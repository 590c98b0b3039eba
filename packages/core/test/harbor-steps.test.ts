// Harbor's multi-step rules (harbor/trial/multi_step.py) as the trial workflow applies them.
import { describe, expect, it } from 'vitest';
import { aggregateStepRewards, minRewardFailure, multiStepVerifierOf, type HarborVerifierRun } from '../src/index.js';

const run = (rewards: Record<string, number>, durationSeconds = 1): HarborVerifierRun => ({
  rewards,
  rewardKey: null,
  reward: null,
  file: Object.keys(rewards).length > 0 ? 'reward.json' : null,
  exitCode: 0,
  timedOut: false,
  durationSeconds,
  reason: null,
});

describe('Harbor multi-step rewards', () => {
  it('gates on reward for a number, on each named reward for a table; a missing one fails', () => {
    expect(minRewardFailure({ reward: 1 }, 1)).toBeNull();
    expect(minRewardFailure({ reward: 0.99 }, 1)).toBe('reward=0.99 below min_reward 1');
    expect(minRewardFailure({ style: 1 }, 0.5)).toBe('reward missing, below min_reward 0.5');
    expect(minRewardFailure(null, { reward: 0 })).toBe('reward missing, below min_reward 0');
    expect(minRewardFailure({ a: 1, b: 0.2 }, { a: 1, b: 0.5 })).toBe('b=0.2 below min_reward 0.5');
    expect(minRewardFailure({ reward: 0 }, null)).toBeNull();
  });

  it('means per key over steps with a result (a missing key is 0), or takes the final step as it is', () => {
    const runs = [run({ reward: 1, kept: 1 }), run({}), run({ reward: 0.5 })];
    expect(aggregateStepRewards(runs, 'mean')).toEqual({ kept: 0.5, reward: 0.75 });
    expect(aggregateStepRewards(runs, 'final')).toEqual({ reward: 0.5 });
    expect(aggregateStepRewards([run({ reward: 1 }), run({})], 'final')).toBeNull();
    expect(aggregateStepRewards([run({})], 'mean')).toBeNull();
  });

  it("makes the trial's verifier entry: the scored reward, summed durations, no reward never 0", () => {
    const v = multiStepVerifierOf([run({ reward: 1 }, 2), run({ reward: 0 }, 3)], 'mean');
    expect(v).toMatchObject({ rewards: { reward: 0.5 }, rewardKey: 'reward', reward: 0.5, durationSeconds: 5 });
    const none = multiStepVerifierOf([run({})], 'mean');
    expect(none).toMatchObject({ rewards: {}, reward: null, reason: "no step's verifier gave a reward (mean)" });
    // Several keys and none is `reward`: their mean, as for a single-step trial (scoredRewardOf).
    expect(multiStepVerifierOf([run({ a: 1, b: 0 })], 'final')).toMatchObject({
      rewardKey: null,
      reward: 0.5,
      meanOf: ['a', 'b'],
      reason: null,
    });
  });
});
