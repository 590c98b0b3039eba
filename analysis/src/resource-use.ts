// Resource use against score: agent hours and tokens (input + output; cached input is
// inside input and not added again). Per trial for single tasks; per project for
// DeliverBench (Fig. 5d: mean project time and tokens). Missing usage stays missing.
import type { ColumnTable } from 'arquero';
import { groupBy, isNum, meanOf, rowsOf, tableOf } from './table-helpers.js';

export const RESOURCE_COLUMNS = ['system', 'units', 'with_usage', 'mean_hours', 'mean_tokens_m', 'mean_score'] as const;

/** Per system: mean agent hours and tokens (millions) per trial, and mean score. */
export function resourceUse(trials: ColumnTable): ColumnTable {
  const rows = rowsOf<{ system: string; agent_seconds: number | null; tokens: number | null; score: number | null }>(
    trials.select('system', 'agent_seconds', 'tokens', 'score'),
  );
  return tableOf(
    summarize(rows.map((r) => ({ system: r.system, seconds: r.agent_seconds, tokens: r.tokens, score: r.score }))),
    RESOURCE_COLUMNS,
  );
}

/** Per system: mean agent hours and tokens (millions) per project, and mean final score. */
export function projectResources(projects: ColumnTable): ColumnTable {
  const rows = rowsOf<{ system: string; agent_seconds: number | null; tokens: number | null; final: number | null }>(
    projects.select('system', 'agent_seconds', 'tokens', 'final'),
  );
  return tableOf(
    summarize(rows.map((r) => ({ system: r.system, seconds: r.agent_seconds, tokens: r.tokens, score: r.final }))),
    RESOURCE_COLUMNS,
  );
}

function summarize(
  rows: { system: string; seconds: number | null; tokens: number | null; score: number | null }[],
): Record<string, unknown>[] {
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
