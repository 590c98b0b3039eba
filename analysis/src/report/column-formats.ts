// Column formats that several report tables share, so the same statistic reads the same everywhere.
import type { ColumnTable } from 'arquero';
import type { ColumnFormat } from '../render/format-table.js';

/** The `<name>_low` / `<name>_high` columns of an interval, labelled "<label> low" / "<label> high". */
export function intervalFormats(name: string, label: string, digits = 2): ColumnFormat[] {
  return [
    { name: `${name}_low`, label: `${label} low`, digits },
    { name: `${name}_high`, label: `${label} high`, digits },
  ];
}

/** A task leaderboard (system-leaderboard.ts): mean score and success rate with their intervals. */
export const LEADERBOARD_FORMATS: readonly ColumnFormat[] = [
  { name: 'system' },
  { name: 'tasks' },
  { name: 'trials' },
  { name: 'unjudged' },
  { name: 'mean', digits: 2 },
  ...intervalFormats('ci', 'CI'),
  ...intervalFormats('bca', 'BCa'),
  { name: 'success_rate', label: 'success %', digits: 2 },
  ...intervalFormats('success_ci', 'succ. CI'),
];

/** The counts, raw agreement and Cohen's kappa of an agreement table (cohen-kappa.ts). */
export const AGREEMENT_FORMATS: readonly ColumnFormat[] = [
  { name: 'n' },
  { name: 'agree' },
  { name: 'agreement', label: 'agreement %', digits: 2 },
  { name: 'kappa', digits: 3 },
  { name: 'unjudged' },
];

/** A resource-use table (resource-use.ts): per trial or per project, with its own precision. */
export function resourceFormats(o: {
  units: string;
  hoursDigits: number;
  tokensDigits: number;
  score: string;
}): ColumnFormat[] {
  return [
    { name: 'system' },
    { name: 'units', label: o.units },
    { name: 'with_usage' },
    { name: 'mean_hours', label: 'hours', digits: o.hoursDigits },
    { name: 'mean_tokens_m', label: 'tokens (M)', digits: o.tokensDigits },
    { name: 'mean_score', label: o.score, digits: 2 },
  ];
}

/** The wide harness-swap table (harness-swap.ts): one score column per harness, then Max–Min. */
export function harnessSwapFormats(wide: ColumnTable): ColumnFormat[] {
  return wide.columnNames().map((name) => ({
    name,
    label: name === 'max_min' ? 'Max–Min' : name,
    ...(name === 'model' ? {} : { digits: 2 }),
  }));
}
