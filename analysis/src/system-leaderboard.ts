// Per-system mean score and success rate with cluster-bootstrap CIs (tasks are the
// clusters: all trials of a task move together), StartupBench Fig. 3; and the
// average-score vs success-rate view (where the two rankings disagree).
import * as aq from 'arquero';
import type { ColumnTable } from 'arquero';
import { SUCCESS_THRESHOLD } from '@assay/core';
import { clusterBootstrap } from './cluster-bootstrap.js';
import type { BootstrapOptions, BootstrapResult, Interval } from './cluster-bootstrap.js';
import { deriveSeed, DEFAULT_SEED } from './seeded-rng.js';
import { groupBy, intervalColumns, rowsOf, sumOf, tableOf } from './table-helpers.js';

export const LEADERBOARD_COLUMNS = [
  'system',
  'model',
  'harness',
  'tasks',
  'trials',
  'scored',
  'unjudged',
  'mean',
  'ci_low',
  'ci_high',
  'bca_low',
  'bca_high',
  'success_rate',
  'success_ci_low',
  'success_ci_high',
  'success_bca_low',
  'success_bca_high',
] as const;

interface TaskAgg {
  system: string;
  model: string;
  harness: string;
  task: string;
  n: number;
  scored: number;
  sum: number;
  successes: number;
}

/** Per system x task: trials, scored trials, score sum and successes (score >= 90). Nulls stay out of sums. */
function taskAggregates(trials: ColumnTable): ColumnTable {
  return trials
    .derive({
      scored_: aq.escape((d: Record<string, unknown>) => (typeof d.score === 'number' ? 1 : 0)),
      score_: aq.escape((d: Record<string, unknown>) => (typeof d.score === 'number' ? d.score : 0)),
      success_: aq.escape((d: Record<string, unknown>) =>
        typeof d.score === 'number' && d.score >= SUCCESS_THRESHOLD ? 1 : 0,
      ),
    })
    .groupby('system', 'model', 'harness', 'task')
    .rollup({
      n: aq.op.count(),
      scored: aq.op.sum('scored_'),
      sum: aq.op.sum('score_'),
      successes: aq.op.sum('success_'),
    });
}

export type LeaderboardOptions = BootstrapOptions;

/** One row per system, sorted by mean score (descending). Scores 0–100, rates in %. */
export function systemLeaderboard(trials: ColumnTable, options: LeaderboardOptions = {}): ColumnTable {
  const seed = options.seed ?? DEFAULT_SEED;
  const bySystem = groupBy(rowsOf<TaskAgg>(taskAggregates(trials)), (r) => r.system);
  const rows = [...bySystem.entries()].map(([system, tasks]) => {
    const scoredTasks = tasks.filter((t) => t.scored > 0);
    const mean = clusterBootstrap(
      { sums: scoredTasks.map((t) => t.sum), counts: scoredTasks.map((t) => t.scored) },
      { ...options, seed: deriveSeed(seed, `mean:${system}`) },
    );
    const success = clusterBootstrap(
      { sums: scoredTasks.map((t) => t.successes), counts: scoredTasks.map((t) => t.scored) },
      { ...options, seed: deriveSeed(seed, `success:${system}`) },
    );
    const first = tasks[0] as TaskAgg;
    const trialsN = sumOf(tasks, (t) => t.n);
    const scored = sumOf(tasks, (t) => t.scored);
    return {
      system,
      model: first.model,
      harness: first.harness,
      tasks: scoredTasks.length,
      trials: trialsN,
      scored,
      unjudged: trialsN - scored,
      ...ciColumns(mean, '', 1),
      ...ciColumns(success, 'success_', 100),
    };
  });
  return tableOf(rows, LEADERBOARD_COLUMNS).orderby(aq.desc('mean'));
}

function ciColumns(r: BootstrapResult, prefix: '' | 'success_', scale: number): Record<string, number | null> {
  const scaled = (i: Interval | null) => i && { low: i.low * scale, high: i.high * scale };
  const name = prefix === '' ? 'mean' : 'success_rate';
  return {
    [name]: r.estimate === null ? null : r.estimate * scale,
    ...intervalColumns(`${prefix}ci`, scaled(r.percentile)),
    ...intervalColumns(`${prefix}bca`, scaled(r.bca)),
  };
}

/**
 * Average score against success rate: both ranks, their gap, and the pairs of systems
 * whose order flips between the two (a higher mean but a lower success rate).
 */
export function scoreVsSuccess(leaderboard: ColumnTable): {
  table: ColumnTable;
  inversions: { higherMean: string; higherSuccess: string }[];
} {
  const rows = rowsOf<{ system: string; mean: number | null; success_rate: number | null }>(leaderboard).filter(
    (r) => r.mean !== null && r.success_rate !== null,
  ) as { system: string; mean: number; success_rate: number }[];
  const rank = (key: 'mean' | 'success_rate', sys: string): number =>
    1 + rows.filter((r) => r[key] > (rows.find((x) => x.system === sys) as (typeof rows)[number])[key]).length;
  const table = tableOf(
    rows.map((r) => ({
      system: r.system,
      mean: r.mean,
      success_rate: r.success_rate,
      gap: r.mean - r.success_rate,
      rank_mean: rank('mean', r.system),
      rank_success: rank('success_rate', r.system),
    })),
    ['system', 'mean', 'success_rate', 'gap', 'rank_mean', 'rank_success'],
  );
  const inversions: { higherMean: string; higherSuccess: string }[] = [];
  for (const a of rows) {
    for (const b of rows) {
      if (a.mean > b.mean && a.success_rate < b.success_rate)
        inversions.push({ higherMean: a.system, higherSuccess: b.system });
    }
  }
  return { table, inversions };
}
