// StartupBench Table 6: the same model under different harnesses, on the same tasks.
// Per model and harness the mean score, the max–min range per model, an average row,
// and whether the model ranking is preserved between harnesses (Kendall's tau).
import type { ColumnTable } from 'arquero';
import type { BootstrapOptions } from './cluster-bootstrap.js';
import { kendallTau } from './kendall-tau.js';
import { pairedDifference } from './paired-difference.js';
import { groupBy, isNum, meanOf, rowsOf, tableOf } from './table-helpers.js';

export interface HarnessMean {
  model: string;
  harness: string;
  avg_score: number | null;
  tasks?: number;
}

export interface HarnessSwapSummary {
  /** Long form: model, harness, avg_score, tasks. */
  means: ColumnTable;
  /** Wide form: one row per model plus an "Average" row; a column per harness and `max_min`. */
  wide: ColumnTable;
  harnesses: string[];
  /** Kendall's tau-b between the model rankings of every pair of harnesses (over models having both). */
  taus: { a: string; b: string; tau: number | null; models: number }[];
  /** True when every pairwise tau is 1 (same order under every harness). */
  rankingPreserved: boolean;
  averageMaxMin: number | null;
  /**
   * Per model, each pair of its harnesses compared as `assay compare` compares two runs (paired-difference.ts):
   * tasks, means, A − B with its bootstrap CI (BCa where defined), McNemar p, verdict. Empty from published means.
   */
  paired: ColumnTable;
}

const PAIRED_COLUMNS = [
  'model',
  'a',
  'b',
  'tasks',
  'mean_a',
  'mean_b',
  'difference',
  'ci_low',
  'ci_high',
  'mcnemar_p',
  'verdict',
];

function pairedHarnesses(
  rows: readonly { model: string; harness: string; task: string; trial: number; score: number | null }[],
  options: BootstrapOptions,
): ColumnTable {
  const out: Record<string, unknown>[] = [];
  for (const [model, list] of groupBy(rows, (r) => r.model)) {
    const harnesses = [...new Set(list.map((r) => r.harness))];
    for (let i = 0; i < harnesses.length; i++)
      for (let j = i + 1; j < harnesses.length; j++) {
        const [a, b] = [harnesses[i]!, harnesses[j]!];
        const d = pairedDifference(
          list.filter((r) => r.harness === a),
          list.filter((r) => r.harness === b),
          options,
        );
        const p = d.paired;
        const ci = p?.bca ?? p?.ci ?? null;
        out.push({
          model,
          a,
          b,
          tasks: p?.tasks ?? 0,
          mean_a: p?.meanA ?? null,
          mean_b: p?.meanB ?? null,
          difference: p?.difference ?? null,
          ci_low: ci?.low ?? null,
          ci_high: ci?.high ?? null,
          mcnemar_p: p?.mcnemarP ?? null,
          verdict: p?.verdict ?? d.reason,
        });
      }
  }
  return tableOf(out, PAIRED_COLUMNS);
}

/**
 * Means from trials: for each model, only tasks scored under every one of its harnesses
 * count ("same tasks, only the harness changes"). Models with a single harness are left out.
 */
export function harnessSwap(trials: ColumnTable, options: BootstrapOptions = {}): HarnessSwapSummary {
  const all = rowsOf<{ model: string; harness: string; task: string; trial: number; score: number | null }>(
    trials.select('model', 'harness', 'task', 'trial', 'score'),
  );
  const rows = all.filter((r) => isNum(r.score));
  const means: HarnessMean[] = [];
  for (const [model, list] of groupBy(rows, (r) => r.model)) {
    const byHarness = groupBy(list, (r) => r.harness);
    if (byHarness.size < 2) continue;
    const taskSets = [...byHarness.values()].map((l) => new Set(l.map((r) => r.task)));
    const common = [...(taskSets[0] as Set<string>)].filter((t) => taskSets.every((s) => s.has(t)));
    const keep = new Set(common);
    for (const [harness, l] of byHarness) {
      means.push({
        model,
        harness,
        avg_score: meanOf(l.filter((r) => keep.has(r.task)).map((r) => r.score)),
        tasks: common.length,
      });
    }
  }
  const swapped = new Set(means.map((m) => m.model));
  return {
    ...summarizeHarnessSwap(means),
    paired: pairedHarnesses(
      rows.filter((r) => swapped.has(r.model)),
      options,
    ),
  };
}

/** The Table 6 summary from per model x harness means (used on trials and on the published table alike). */
export function summarizeHarnessSwap(means: readonly HarnessMean[]): HarnessSwapSummary {
  const harnesses = [...new Set(means.map((m) => m.harness))];
  const models = [...new Set(means.map((m) => m.model))];
  const get = (model: string, harness: string): number | null =>
    means.find((m) => m.model === model && m.harness === harness)?.avg_score ?? null;
  const wideRows: Record<string, unknown>[] = models.map((model) => {
    const vals = harnesses.map((h) => get(model, h)).filter(isNum);
    const row: Record<string, unknown> = { model };
    for (const h of harnesses) row[h] = get(model, h);
    row.max_min = vals.length >= 2 ? Math.max(...vals) - Math.min(...vals) : null;
    return row;
  });
  const avg: Record<string, unknown> = { model: 'Average' };
  for (const h of harnesses) avg[h] = meanOf(wideRows.map((r) => r[h]));
  const averageMaxMin = meanOf(wideRows.map((r) => r.max_min));
  avg.max_min = averageMaxMin;
  const taus: HarnessSwapSummary['taus'] = [];
  for (let i = 0; i < harnesses.length; i++) {
    for (let j = i + 1; j < harnesses.length; j++) {
      const a = harnesses[i] as string;
      const b = harnesses[j] as string;
      const both = models.filter((m) => isNum(get(m, a)) && isNum(get(m, b)));
      const tau = kendallTau(
        both.map((m) => get(m, a) as number),
        both.map((m) => get(m, b) as number),
      );
      taus.push({ a, b, tau, models: both.length });
    }
  }
  return {
    means: tableOf(
      means.map((m) => ({ model: m.model, harness: m.harness, avg_score: m.avg_score, tasks: m.tasks ?? null })),
      ['model', 'harness', 'avg_score', 'tasks'],
    ),
    wide: tableOf([...wideRows, avg], ['model', ...harnesses, 'max_min']),
    harnesses,
    taus,
    rankingPreserved: taus.length > 0 && taus.every((t) => t.tau === 1),
    averageMaxMin,
    paired: tableOf([], PAIRED_COLUMNS),
  };
}
