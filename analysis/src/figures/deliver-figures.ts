// DeliverBench figures: Fig. 5a final scores, 5b process–final gap, 5c process vs
// final with the equal-score line, 5d resources vs score, 5e/5f profiles (via the
// shared heatmap), and Fig. 9 checkpoint trajectories.
import { figure, PALETTE } from './figure-config.js';
import type { VlSpec } from './figure-config.js';
import { orderBy, top } from './startup-figures.js';

export interface SystemValue {
  system: string;
  value: number | null;
  low?: number | null;
  high?: number | null;
}

/** A bar per system with optional CI rules and printed values (Fig. 5a, 5b). */
export function systemBarFigure(opts: {
  title: string;
  subtitle?: string;
  rows: readonly SystemValue[];
  valueTitle: string;
  color?: string;
  domain?: [number, number];
}): VlSpec {
  const y = {
    field: 'value',
    type: 'quantitative',
    title: opts.valueTitle,
    ...(opts.domain ? { scale: { domain: opts.domain } } : {}),
  };
  return figure(opts.title, opts.subtitle, {
    data: { values: opts.rows.map((r) => ({ ...r, label_y: top(r.value, r.high) })) },
    width: { step: 48 },
    height: 240,
    encoding: {
      x: {
        field: 'system',
        type: 'nominal',
        sort: orderBy(opts.rows, (r) => r.value),
        title: null,
        axis: { labelAngle: -35 },
      },
    },
    layer: [
      { mark: { type: 'bar', color: opts.color ?? PALETTE.final }, encoding: { y } },
      {
        mark: { type: 'rule', color: '#222', strokeWidth: 1.5 },
        encoding: { y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' } },
      },
      {
        mark: { type: 'text', dy: -6, fontSize: 9 },
        encoding: { y: { field: 'label_y', type: 'quantitative' }, text: { field: 'value', format: '.1f' } },
      },
    ],
  });
}

export function processFinalScatter(
  rows: readonly { system: string; project: string; process: number | null; final: number | null }[],
  below?: { below: number; outcomes: number },
): VlSpec {
  const subtitle = below
    ? `${below.below} of ${below.outcomes} system–project outcomes lie below the equal-score line`
    : 'Each point is one system–project outcome';
  return figure('Process vs final delivery', subtitle, {
    width: 320,
    height: 320,
    layer: [
      {
        data: { values: [{ v: 0 }, { v: 100 }] },
        mark: { type: 'line', strokeDash: [4, 4], color: PALETTE.diagonal },
        encoding: { x: { field: 'v', type: 'quantitative' }, y: { field: 'v', type: 'quantitative' } },
      },
      {
        data: { values: rows },
        mark: { type: 'point', filled: true, size: 45, opacity: 0.85 },
        encoding: {
          x: {
            field: 'process',
            type: 'quantitative',
            title: 'Process score (mean of checkpoints)',
            scale: { domain: [0, 100] },
          },
          y: { field: 'final', type: 'quantitative', title: 'Final-delivery score', scale: { domain: [0, 100] } },
          color: { field: 'system', type: 'nominal', title: 'System' },
          tooltip: [
            { field: 'system' },
            { field: 'project' },
            { field: 'process', format: '.2f' },
            { field: 'final', format: '.2f' },
          ],
        },
      },
    ],
  });
}

export function resourcesFigure(
  rows: readonly {
    system: string;
    mean_hours: number | null;
    mean_tokens_m: number | null;
    mean_score: number | null;
  }[],
  unit = 'project',
): VlSpec {
  const panel = (field: string, title: string): VlSpec => ({
    width: 260,
    height: 220,
    encoding: {
      x: { field, type: 'quantitative', title, scale: { zero: false, nice: true } },
      y: { field: 'mean_score', type: 'quantitative', title: 'Mean final score', scale: { zero: false } },
    },
    layer: [
      {
        mark: { type: 'point', filled: true, size: 70 },
        encoding: {
          color: { field: 'system', type: 'nominal', title: 'System' },
          tooltip: [{ field: 'system' }, { field, format: '.2f' }, { field: 'mean_score', format: '.2f' }],
        },
      },
      { mark: { type: 'text', dy: -9, fontSize: 9 }, encoding: { text: { field: 'system' } } },
    ],
  });
  return figure('Resources vs score', `Mean agent hours and tokens (input + output, millions) per ${unit}`, {
    data: { values: rows },
    hconcat: [panel('mean_hours', `Agent hours per ${unit}`), panel('mean_tokens_m', `Tokens per ${unit} (M)`)],
  });
}

export function trajectoriesFigure(
  rows: readonly { system: string; project: string; step: number; kind: string; score: number | null }[],
): VlSpec {
  return figure(
    'Checkpoint trajectories',
    'Checkpoint scores along each project; the last point is the final delivery',
    {
      data: { values: rows },
      facet: { field: 'project', type: 'nominal', title: null },
      columns: 4,
      spec: {
        width: 170,
        height: 110,
        layer: [
          {
            transform: [{ filter: "datum.kind === 'checkpoint'" }],
            mark: { type: 'line', point: { size: 14 }, strokeWidth: 1.2 },
            encoding: {
              x: { field: 'step', type: 'quantitative', title: 'Step', axis: { tickMinStep: 1 } },
              y: { field: 'score', type: 'quantitative', title: 'Score', scale: { domain: [0, 100] } },
              color: { field: 'system', type: 'nominal', title: 'System' },
            },
          },
          {
            transform: [{ filter: "datum.kind === 'final'" }],
            mark: { type: 'point', shape: 'diamond', filled: true, size: 50 },
            encoding: {
              x: { field: 'step', type: 'quantitative' },
              y: { field: 'score', type: 'quantitative' },
              color: { field: 'system', type: 'nominal' },
            },
          },
        ],
      },
    },
  );
}
