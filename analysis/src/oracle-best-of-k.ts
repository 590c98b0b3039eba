// Oracle best-of-k: per system and task keep the best of its k trials (StartupBench
// Table 7 "General (Oracle)"), with a task-cluster bootstrap CI; and the general vs
// specialized comparison built on it.
import type { ColumnTable } from 'arquero';
import { SUCCESS_THRESHOLD } from '@assay/core';
import { clusterBootstrap } from './cluster-bootstrap.js';
import type { BootstrapOptions } from './cluster-bootstrap.js';
import { deriveSeed, DEFAULT_SEED } from './seeded-rng.js';
import { groupBy, intervalColumns, isNum, meanOf, rowsOf, tableOf } from './table-helpers.js';

const ORACLE_COLUMNS = [
  'system',
  'tasks',
  'k',
  'all_runs_mean',
  'all_runs_success',
  'oracle_mean',
  'oracle_ci_low',
  'oracle_ci_high',
  'oracle_success',
  'oracle_gap',
  'oracle_success_gap',
] as const;

export function oracleBestOfK(trials: ColumnTable, options: BootstrapOptions = {}): ColumnTable {
  const seed = options.seed ?? DEFAULT_SEED;
  const rows = rowsOf<{ system: string; task: string; score: number | null }>(trials.select('system', 'task', 'score'));
  const out = [...groupBy(rows, (r) => r.system).entries()].map(([system, list]) => {
    const perTask = [...groupBy(list, (r) => r.task).values()]
      .map((t) => t.map((r) => r.score).filter(isNum))
      .filter((s) => s.length > 0);
    const all = perTask.flat();
    const best = perTask.map((s) => Math.max(...s));
    const ci = clusterBootstrap(
      { sums: best, counts: best.map(() => 1) },
      { ...options, seed: deriveSeed(seed, `oracle:${system}`) },
    );
    const rate = (xs: number[]): number | null =>
      xs.length ? (100 * xs.filter((s) => s >= SUCCESS_THRESHOLD).length) / xs.length : null;
    const allMean = meanOf(all);
    const allSuccess = rate(all);
    const oracleSuccess = rate(best);
    return {
      system,
      tasks: best.length,
      k: Math.max(0, ...perTask.map((s) => s.length)),
      all_runs_mean: allMean,
      all_runs_success: allSuccess,
      oracle_mean: ci.estimate,
      ...intervalColumns('oracle_ci', ci.percentile),
      oracle_success: oracleSuccess,
      oracle_gap: ci.estimate === null || allMean === null ? null : ci.estimate - allMean,
      oracle_success_gap: oracleSuccess === null || allSuccess === null ? null : oracleSuccess - allSuccess,
    };
  });
  return tableOf(out, ORACLE_COLUMNS);
}

export interface SystemMeans {
  system: string;
  mean: number | null;
  success_rate: number | null;
  oracle_mean?: number | null;
  oracle_success?: number | null;
}

/**
 * Table 7: General (All Runs avg) and General (Oracle) average the per-system values
 * of the general systems equally; Specialized averages the specialized systems; the
 * gap rows are Specialized minus each general row.
 */
export function generalVsSpecialized(perSystem: readonly SystemMeans[], specialized: readonly string[]): ColumnTable {
  const isSpec = new Set(specialized);
  const general = perSystem.filter((s) => !isSpec.has(s.system));
  const spec = perSystem.filter((s) => isSpec.has(s.system));
  const rows = [
    {
      agent_system: 'General (All Runs avg)',
      systems: general.length,
      avg_score: meanOf(general.map((s) => s.mean)),
      success_rate: meanOf(general.map((s) => s.success_rate)),
    },
    {
      agent_system: 'General (Oracle)',
      systems: general.length,
      avg_score: meanOf(general.map((s) => s.oracle_mean ?? null)),
      success_rate: meanOf(general.map((s) => s.oracle_success ?? null)),
    },
  ];
  if (spec.length > 0) {
    const s = {
      agent_system: 'Specialized Agent',
      systems: spec.length,
      avg_score: meanOf(spec.map((x) => x.mean)),
      success_rate: meanOf(spec.map((x) => x.success_rate)),
    };
    rows.push(s);
    for (const g of rows.slice(0, 2)) {
      rows.push({
        agent_system: `Gap: Specialized - ${g.agent_system}`,
        systems: spec.length,
        avg_score: s.avg_score === null || g.avg_score === null ? null : s.avg_score - g.avg_score,
        success_rate: s.success_rate === null || g.success_rate === null ? null : s.success_rate - g.success_rate,
      });
    }
  }
  return tableOf(rows, ['agent_system', 'systems', 'avg_score', 'success_rate']);
}
