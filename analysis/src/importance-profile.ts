// StartupBench Table 4: satisfaction rate per importance level, computed within each
// model-task-trial first and then averaged across tasks and trials.
import type { ColumnTable } from 'arquero';
import { IMPORTANCE_LABELS, IMPORTANCES } from '@assay/core';
import type { Importance } from '@assay/core';
import { groupBy, meanOf, rowsOf, tableOf } from './table-helpers.js';

export function importanceProfile(verdicts: ColumnTable): ColumnTable {
  const rows = rowsOf<{ system: string; task: string; trial: number; importance: string; satisfied: number | null }>(
    verdicts.select('system', 'task', 'trial', 'importance', 'satisfied'),
  );
  // Rate within each system-task-trial-level (decided items only).
  const units = [
    ...groupBy(rows, (r) => `${r.system}\u0000${r.importance}\u0000${r.task}\u0000${r.trial}`).values(),
  ].map((list) => {
    const decided = list.filter((r) => r.satisfied !== null);
    const first = list[0] as (typeof list)[number];
    return {
      system: first.system,
      importance: first.importance,
      rate: decided.length ? decided.reduce((a, r) => a + (r.satisfied as number), 0) / decided.length : null,
    };
  });
  const out = [...groupBy(units, (u) => `${u.system}\u0000${u.importance}`).values()].map((list) => {
    const first = list[0] as (typeof list)[number];
    const m = meanOf(list.map((u) => u.rate));
    return {
      system: first.system,
      level: IMPORTANCE_LABELS[first.importance as Importance] ?? first.importance,
      units: list.filter((u) => u.rate !== null).length,
      satisfaction: m === null ? null : 100 * m,
    };
  });
  return tableOf(out, ['system', 'level', 'units', 'satisfaction']);
}

/** Average row across systems per level (Table 4 "Average"), and how many systems fall monotonically Auxiliary > Important > Core. */
export function importanceSummary(levels: ColumnTable): {
  average: Record<string, number | null>;
  monotone: number;
  systems: number;
} {
  const rows = rowsOf<{ system: string; level: string; satisfaction: number | null }>(levels);
  const average: Record<string, number | null> = {};
  for (const imp of IMPORTANCES) {
    const label = IMPORTANCE_LABELS[imp];
    average[label] = meanOf(rows.filter((r) => r.level === label).map((r) => r.satisfaction));
  }
  let monotone = 0;
  const systems = [...groupBy(rows, (r) => r.system).values()];
  for (const list of systems) {
    const v = (label: string): number | null => list.find((r) => r.level === label)?.satisfaction ?? null;
    const [aux, imp, core] = [v('Auxiliary'), v('Important'), v('Core')];
    if (aux !== null && imp !== null && core !== null && aux > imp && imp > core) monotone++;
  }
  return { average, monotone, systems: systems.length };
}
