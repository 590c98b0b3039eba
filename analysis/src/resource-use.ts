// Resource use against score: agent hours and tokens (input + output; cached input is
// inside input and not added again). Per trial for single tasks; per project for
// DeliverBench (Fig. 5d: mean project time and tokens). Missing usage stays missing.
import type { ColumnTable } from 'arquero';
import { groupBy, isNum, meanOf, rowsOf, tableOf } from './table-helpers.js';

const RESOURCE_COLUMNS = ['system', 'units', 'with_usage', 'mean_hours', 'mean_tokens_m', 'mean_score'] as const;

/** Per system: mean agent hours and tokens (millions) per trial, and mean score. */
export function resourceUse(trials: ColumnTable): ColumnTable {
  return resourcesAgainst(trials, 'score');
}

/** Per system: mean agent hours and tokens (millions) per project, and mean final score. */
export function projectResources(projects: ColumnTable): ColumnTable {
  return resourcesAgainst(projects, 'final');
}

interface UnitUse {
  system: string;
  seconds: number | null;
  tokens: number | null;
  score: number | null;
}

/** Per system over a table with one row per unit (trial or project), against the unit's score column. */
function resourcesAgainst(units: ColumnTable, scoreColumn: 'score' | 'final'): ColumnTable {
  const rows = rowsOf<UnitUse>(
    units.select({ system: 'system', agent_seconds: 'seconds', tokens: 'tokens', [scoreColumn]: 'score' }),
  );
  return tableOf(summarize(rows), RESOURCE_COLUMNS);
}

function summarize(rows: UnitUse[]): Record<string, unknown>[] {
  return [...groupBy(rows, (r) => r.system).entries()].map(([system, list]) => {
    const hours = meanOf(list.map((r) => r.seconds));
    const tokens = meanOf(list.map((r) => r.tokens));
    return {
      system,
      units: list.length,
      with_usage: list.filter((r) => isNum(r.tokens)).length,
      mean_hours: hours === null ? null : hours / 3600,
      mean_tokens_m: tokens === null ? null : tokens / 1e6,
      mean_score: meanOf(list.map((r) => r.score)),
    };
  });
}
