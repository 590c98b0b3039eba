// The report as data: narrative, tables and figures in order. The same document is
// written as HTML, as a Jupyter notebook, and as one file per figure and table.
import type { ColumnTable } from 'arquero';
import type { VlSpec } from '../figures/figure-config.js';
import type { ColumnFormat } from '../render/format-table.js';

export interface ReportFigure {
  id: string;
  title: string;
  caption: string;
  spec: VlSpec;
}

export interface ReportTable {
  id: string;
  title: string;
  caption: string;
  table: ColumnTable;
  columns?: ColumnFormat[];
}

export type ReportBlock =
  | { kind: 'markdown'; text: string }
  | { kind: 'figure'; figure: ReportFigure }
  | { kind: 'table'; table: ReportTable };

export interface ReportDocument {
  title: string;
  /** Shown under the title; e.g. jobs, seed, resamples. */
  meta: Record<string, string | number>;
  blocks: ReportBlock[];
}

/** Small builder so report code reads top to bottom like the report. */
export class DocumentBuilder {
  readonly blocks: ReportBlock[] = [];
  markdown(text: string): this {
    this.blocks.push({ kind: 'markdown', text: text.trim() });
    return this;
  }
  /**
   * A figure, or a note in its place when its data holds no number yet (e.g. nothing
   * judged). `valueFields` names the measured fields (default: any numeric field).
   */
  figure(figure: ReportFigure, valueFields?: readonly string[]): this {
    if (hasNumbers(figure.spec, valueFields)) this.blocks.push({ kind: 'figure', figure });
    else this.blocks.push({ kind: 'markdown', text: `*${figure.title}: no data to draw yet (no scored results).*` });
    return this;
  }
  table(table: ReportTable): this {
    this.blocks.push({ kind: 'table', table });
    return this;
  }
}

/**
 * True when some inline data row of the spec (top level or any layer) has a finite number
 * in one of `fields` (default: any field except the constant guide field `v`).
 */
function hasNumbers(spec: unknown, fields?: readonly string[]): boolean {
  const counts = (k: string): boolean => (fields ? fields.includes(k) : k !== 'v');
  const rowsWithNumbers = (data: unknown): boolean => {
    const values = (data as { values?: unknown } | undefined)?.values;
    return (
      Array.isArray(values) &&
      values.some(
        (row) =>
          row !== null &&
          typeof row === 'object' &&
          Object.entries(row).some(([k, v]) => counts(k) && typeof v === 'number' && Number.isFinite(v)),
      )
    );
  };
  const s = spec as { data?: unknown; layer?: unknown[] };
  if (rowsWithNumbers(s.data)) return true;
  return Array.isArray(s.layer) && s.layer.some((l) => rowsWithNumbers((l as { data?: unknown }).data));
}
