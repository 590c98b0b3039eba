// Shared look of every figure: one font (embedded in SVG, loaded for PNG), white
// background, Vega-Lite 5 schema. Specs carry their data inline so that a figure is
// self-contained in HTML, notebooks and files.

export type VlSpec = Record<string, unknown>;

export const FONT_FAMILY = 'DejaVu Sans';
const VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v5.json';

const BASE_CONFIG = {
  font: FONT_FAMILY,
  background: 'white',
  padding: 8,
  axis: { labelFontSize: 11, titleFontSize: 12, titleFontWeight: 'normal' },
  legend: { labelFontSize: 11, titleFontSize: 12, titleFontWeight: 'normal' },
  header: { labelFontSize: 11, titleFontSize: 12 },
  title: { fontSize: 14, anchor: 'start', subtitleFontSize: 11, subtitleColor: '#555' },
  view: { continuousWidth: 380, continuousHeight: 240 },
  // Null and NaN values are dropped from marks, never drawn as 0.
  mark: { invalid: 'filter' },
} as const;

/** A top-level spec: schema, title, config, then the chart body. */
export function figure(title: string, subtitle: string | undefined, body: VlSpec): VlSpec {
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: subtitle ? { text: title, subtitle } : { text: title },
    config: BASE_CONFIG,
    ...body,
  };
}

/** Colours for the two StartupBench metrics and DeliverBench's process/final pair. */
export const PALETTE = {
  score: '#4c78a8',
  success: '#f58518',
  process: '#72b7b2',
  final: '#4c78a8',
  diagonal: '#888888',
};
