// Harbor tasks' verifier rewards, key by key. A verifier may name several rewards ({"correctness": 1,
// "performance": 0.5}); the trial's one score takes `reward`, else the only key, else the mean of the keys
// (core's scoredRewardOf), so the leaderboard alone hides how each key went. Harbor's own metrics report the
// mean per key too, but count a trial with no reward as 0; here it is counted apart (`no_reward`), never as 0.
import type { ColumnTable } from 'arquero';
import { groupBy, meanOf, rowsOf, tableOf } from './table-helpers.js';

const HARBOR_REWARD_COLUMNS = ['system', 'key', 'trials', 'mean', 'min', 'max', 'no_reward', 'harbor_trials'] as const;

interface HarborTrial {
  system: string;
  rewards: Record<string, number>;
}

interface HarborRewardRow {
  system: string;
  /** null only on the one row of a system none of whose trials wrote a reward. */
  key: string | null;
  trials: number;
  mean: number | null;
  min: number | null;
  max: number | null;
  no_reward: number;
  harbor_trials: number;
}

/**
 * Per system and reward key: how many trials wrote that key and its mean, min and max as written (not scaled to
 * 0–100); per system, how many Harbor trials wrote no reward at all. Trials without a verifier (assay's rubric
 * tasks) are left out; null when no trial has one.
 */
export function harborRewards(trials: ColumnTable): ColumnTable | null {
  const rows = rowsOf<{ system: string; rewards: Record<string, number> | null }>(
    trials.select('system', 'rewards'),
  ).filter((r): r is HarborTrial => r.rewards !== null);
  if (rows.length === 0) return null;
  const out = [...groupBy(rows, (r) => r.system).entries()].flatMap(([system, list]) => systemRows(system, list));
  return tableOf(out, HARBOR_REWARD_COLUMNS);
}

function systemRows(system: string, list: readonly HarborTrial[]): HarborRewardRow[] {
  const counts = {
    no_reward: list.filter((r) => Object.keys(r.rewards).length === 0).length,
    harbor_trials: list.length,
  };
  const keys = [...new Set(list.flatMap((r) => Object.keys(r.rewards)))].sort();
  if (keys.length === 0) return [{ system, key: null, trials: 0, mean: null, min: null, max: null, ...counts }];
  return keys.map((key) => {
    // A trial that did not write this key is left out of it (not counted as 0).
    const values = list.map((r) => r.rewards[key]).filter((v): v is number => v !== undefined);
    return {
      system,
      key,
      trials: values.length,
      mean: meanOf(values),
      min: Math.min(...values),
      max: Math.max(...values),
      ...counts,
    };
  });
}
