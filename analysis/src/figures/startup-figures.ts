// StartupBench figures: leaderboard with CI bars (Fig. 3), domain and dimension
// profiles (Table 3, Fig. 4), importance levels (Table 4), format compliance
// (Table 5), harness swap (Table 6), oracle best-of-k vs all runs (Table 7).
import { OVERALL } from '../domain-profile.js';
import { figure, PALETTE } from './figure-config.js';
import type { VlSpec } from './figure-config.js';

export interface LeaderboardPoint {
  system: string;
  mean: number | null;
  ci_low?: number | null;
  ci_high?: number | null;
  success_rate: number | null;
  success_ci_low?: number | null;
  success_ci_high?: number | null;
}

export function leaderboardFigure(rows: readonly LeaderboardPoint[], subtitle?: string): VlSpec {
  const order = [...rows].sort((a, b) => (b.mean ?? -1) - (a.mean ?? -1)).map((r) => r.system);
  const bar = (system: string, metric: string, value: number | null, low?: number | null, high?: number | null) => ({
    system,
    metric,
    value,
    low: low ?? null,
    high: high ?? null,
    label_y: top(value, high),
  });
  const values = rows.flatMap((r) => [
    bar(r.system, 'Average score', r.mean, r.ci_low, r.ci_high),
    bar(r.system, 'Success rate (≥ 90), %', r.success_rate, r.success_ci_low, r.success_ci_high),
  ]);
  const x = { field: 'system', type: 'nominal', sort: order, title: null, axis: { labelAngle: -35 } };
  const color = {
    field: 'metric',
    type: 'nominal',
    title: null,
    scale: { range: [PALETTE.score, PALETTE.success] },
    legend: { orient: 'top' },
  };
  return figure(
    'Leaderboard',
    subtitle ?? 'Mean score and success rate with 95% cluster-bootstrap CIs (tasks resampled)',
    {
      data: { values },
      width: { step: 56 },
      height: 260,
      encoding: { x, xOffset: { field: 'metric' }, color },
      layer: [
        {
          mark: { type: 'bar' },
          encoding: { y: { field: 'value', type: 'quantitative', title: 'Score / %', scale: { domain: [0, 100] } } },
        },
        {
          mark: { type: 'rule', strokeWidth: 1.5 },
          encoding: { y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' }, color: { value: '#222' } },
        },
        {
          mark: { type: 'text', dy: -6, fontSize: 9 },
          encoding: {
            y: { field: 'label_y', type: 'quantitative' },
            text: { field: 'value', format: '.1f' },
            color: { value: '#222' },
          },
        },
      ],
    },
  );
}

/** Systems ordered by a value, highest first (explicit, so layered marks share one order). */
export function orderBy<T extends { system: string }>(
  rows: readonly T[],
  value: (r: T) => number | null | undefined,
): string[] {
  return [...rows].sort((a, b) => (value(b) ?? -Infinity) - (value(a) ?? -Infinity)).map((r) => r.system);
}

/** Where a value label goes: above the bar or above its CI, whichever is higher. */
export function top(value: number | null, high: number | null | undefined): number | null {
  if (value === null) return null;
  return high === null || high === undefined ? value : Math.max(value, high);
}

/** Heatmap of a 0–100 value over systems x categories, with the value printed in each cell. */
export function heatmapFigure(opts: {
  title: string;
  subtitle?: string;
  rows: readonly { system: string; category: string; value: number | null; label?: string }[];
  categoryTitle: string;
  categories?: readonly string[];
  systems?: readonly string[];
  valueTitle: string;
}): VlSpec {
  const values = opts.rows.map((r) => ({ ...r, label: r.label ?? (r.value === null ? '—' : r.value.toFixed(1)) }));
  const enc = {
    x: {
      field: 'category',
      type: 'nominal',
      title: opts.categoryTitle,
      sort: opts.categories ?? null,
      axis: { labelAngle: -30 },
    },
    y: { field: 'system', type: 'nominal', title: null, sort: opts.systems ?? null },
  };
  return figure(opts.title, opts.subtitle, {
    data: { values },
    width: { step: 78 },
    height: { step: 24 },
    encoding: enc,
    layer: [
      { mark: { type: 'rect', color: '#eeeeee' } },
      {
        mark: { type: 'rect' },
        encoding: {
          color: {
            field: 'value',
            type: 'quantitative',
            title: opts.valueTitle,
            scale: { domain: [0, 100], scheme: 'blues' },
          },
        },
      },
      {
        mark: { type: 'text', fontSize: 10 },
        encoding: {
          text: { field: 'label' },
          color: { condition: { test: 'datum.value !== null && datum.value > 65', value: 'white' }, value: '#222' },
        },
      },
    ],
  });
}

/** Table 3 as a heatmap: a value per system and domain; the Overall row is a summary, not a domain, and stays out. */
export function domainFigure(opts: {
  title: string;
  rows: readonly { system: string; domain: string; value: number | null }[];
  domains: readonly string[];
  systems: readonly string[];
  valueTitle: string;
}): VlSpec {
  return heatmapFigure({
    title: opts.title,
    rows: opts.rows
      .filter((r) => r.domain !== OVERALL)
      .map((r) => ({ system: r.system, category: r.domain, value: r.value })),
    categoryTitle: 'Domain',
    categories: opts.domains,
    systems: opts.systems,
    valueTitle: opts.valueTitle,
  });
}

/** Fig. 4 as a heatmap: importance-weighted pass rate per system and rubric dimension. */
export function dimensionFigure(
  rows: readonly { system: string; dimension: string; value: number | null }[],
  systems: readonly string[],
): VlSpec {
  return heatmapFigure({
    title: 'Pass rate by rubric dimension',
    rows: rows.map((r) => ({ system: r.system, category: r.dimension, value: r.value })),
    categoryTitle: 'Dimension',
    systems,
    valueTitle: 'Pass rate, %',
  });
}

export function importanceFigure(
  rows: readonly { system: string; level: string; satisfaction: number | null }[],
  systems?: readonly string[],
): VlSpec {
  return figure('Satisfaction by importance level', 'Rate within each model-task-trial, then averaged (%)', {
    data: { values: rows },
    width: { step: 54 },
    height: 240,
    mark: { type: 'bar' },
    encoding: {
      x: { field: 'system', type: 'nominal', sort: systems ?? null, title: null, axis: { labelAngle: -35 } },
      xOffset: { field: 'level', sort: ['Auxiliary', 'Important', 'Core'] },
      y: { field: 'satisfaction', type: 'quantitative', title: 'Satisfied items, %', scale: { domain: [0, 100] } },
      color: {
        field: 'level',
        type: 'nominal',
        title: 'Importance',
        sort: ['Auxiliary', 'Important', 'Core'],
        scale: { range: ['#bab0ac', '#72b7b2', '#4c78a8'] },
        legend: { orient: 'top' },
      },
      tooltip: [{ field: 'system' }, { field: 'level' }, { field: 'satisfaction', format: '.2f' }],
    },
  });
}

export function formatComplianceFigure(rows: readonly { system: string; compliance: number | null }[]): VlSpec {
  return figure(
    'Output-format compliance',
    'Runs whose deliverables have the required file types, on tasks that require them (%)',
    {
      data: { values: rows },
      width: 380,
      height: { step: 22 },
      encoding: {
        y: { field: 'system', type: 'nominal', sort: orderBy(rows, (r) => r.compliance), title: null },
        x: { field: 'compliance', type: 'quantitative', title: 'Compliance, %', scale: { domain: [0, 100] } },
      },
      layer: [
        { mark: { type: 'bar', color: PALETTE.score } },
        {
          mark: { type: 'text', align: 'left', dx: 4, fontSize: 10 },
          encoding: { text: { field: 'compliance', format: '.1f' } },
        },
      ],
    },
  );
}

export function harnessSwapFigure(
  rows: readonly { model: string; harness: string; avg_score: number | null }[],
): VlSpec {
  return figure(
    'Harness swap',
    'Same model and tasks, only the harness changes; the line spans max–min',
    rangeDots({
      values: rows,
      rowStep: 30,
      row: 'model',
      value: 'avg_score',
      valueTitle: 'Average score',
      dotSize: 80,
      dot: { field: 'harness', type: 'nominal', title: 'Harness', legend: { orient: 'top' } },
    }),
  );
}

export function oracleFigure(
  rows: readonly { system: string; all_runs: number | null; oracle: number | null }[],
  what = 'Average score',
): VlSpec {
  const values = rows.flatMap((r) => [
    { system: r.system, kind: 'All runs', value: r.all_runs },
    { system: r.system, kind: 'Best of k (oracle)', value: r.oracle },
  ]);
  return figure(
    'Oracle best-of-k vs all runs',
    `${what}: mean over all trials vs the best trial per task`,
    rangeDots({
      values,
      rowStep: 24,
      row: 'system',
      value: 'value',
      valueTitle: what,
      dotSize: 70,
      dot: {
        field: 'kind',
        type: 'nominal',
        title: null,
        scale: { range: [PALETTE.score, PALETTE.success] },
        legend: { orient: 'top' },
      },
    }),
  );
}

/**
 * One line per row spanning the min–max of its values, with a dot per value coloured by
 * `dot` (its field is the dot's category; the tooltip names row, category and value).
 */
function rangeDots(o: {
  values: readonly object[];
  rowStep: number;
  row: string;
  value: string;
  valueTitle: string;
  dotSize: number;
  dot: { field: string } & Record<string, unknown>;
}): VlSpec {
  return {
    data: { values: o.values },
    width: 380,
    height: { step: o.rowStep },
    encoding: { y: { field: o.row, type: 'nominal', title: null } },
    layer: [
      {
        mark: { type: 'rule', color: '#999' },
        encoding: {
          x: { aggregate: 'min', field: o.value, type: 'quantitative', title: o.valueTitle, scale: { zero: false } },
          x2: { aggregate: 'max', field: o.value },
        },
      },
      {
        mark: { type: 'point', filled: true, size: o.dotSize },
        encoding: {
          x: { field: o.value, type: 'quantitative' },
          color: o.dot,
          tooltip: [{ field: o.row }, { field: o.dot.field }, { field: o.value, format: '.2f' }],
        },
      },
    ],
  };
}
