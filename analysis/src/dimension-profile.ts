// StartupBench Fig. 4: importance-weighted pass rate per rubric dimension,
// sum(w * y) / sum(w) over every decided item of that dimension (all tasks and trials).
import type { ColumnTable } from 'arquero';
import { DIMENSION_LABELS } from '@assay/core';
import type { Dimension } from '@assay/core';
import { groupBy, rowsOf, tableOf } from './table-helpers.js';

export function dimensionProfile(verdicts: ColumnTable): ColumnTable {
  const rows = rowsOf<{ system: string; dimension: string; weight: number; satisfied: number | null }>(
    verdicts.select('system', 'dimension', 'weight', 'satisfied'),
  );
  const out = [...groupBy(rows, (r) => `${r.system}\u0000${r.dimension}`).entries()].map(([key, list]) => {
    const [system, dimension] = key.split('\u0000') as [string, string];
    const decided = list.filter((r) => r.satisfied !== null);
    const w = decided.reduce((a, r) => a + r.weight, 0);
    const earned = decided.reduce((a, r) => a + r.weight * (r.satisfied as number), 0);
    return {
      system,
      dimension: DIMENSION_LABELS[dimension as Dimension] ?? dimension,
      items: list.length,
      unjudged: list.length - decided.length,
      pass_rate: w > 0 ? (100 * earned) / w : null,
    };
  });
  return tableOf(out, ['system', 'dimension', 'items', 'unjudged', 'pass_rate']);
}
