// A table as CSV (full precision, empty for null), Markdown and LaTeX booktabs
// (rounded for reading, "—" for null). Unavailable/unjudged values stay visible.
import type { ColumnTable } from 'arquero';
import { rowsOf } from '../table-helpers.js';

export interface ColumnFormat {
  name: string;
  label?: string;
  /** Decimals for display; integers print without decimals unless set. */
  digits?: number;
}

export interface TableSpec {
  table: ColumnTable;
  columns?: ColumnFormat[];
}

function columnsOf(spec: TableSpec): ColumnFormat[] {
  return spec.columns ?? spec.table.columnNames().map((name) => ({ name }));
}

function displayValue(v: unknown, digits?: number): string {
  if (v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v))) return '—';
  if (typeof v === 'number') {
    if (digits !== undefined) return v.toFixed(digits);
    return Number.isInteger(v) ? String(v) : v.toFixed(2);
  }
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return String(v);
}

export function toCsv(spec: TableSpec): string {
  const cols = columnsOf(spec);
  const esc = (s: string): string => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const lines = [cols.map((c) => esc(c.name)).join(',')];
  for (const r of rowsOf(spec.table)) {
    lines.push(
      cols
        .map((c) => {
          const v = r[c.name];
          return v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v)) ? '' : esc(String(v));
        })
        .join(','),
    );
  }
  return lines.join('\n') + '\n';
}

export function toMarkdown(spec: TableSpec): string {
  const cols = columnsOf(spec);
  const rows = rowsOf(spec.table);
  const numeric = cols.map((c) => rows.some((r) => typeof r[c.name] === 'number'));
  const esc = (s: string): string => s.replace(/\|/g, '\\|');
  const lines = [
    `| ${cols.map((c) => esc(c.label ?? c.name)).join(' | ')} |`,
    `| ${numeric.map((n) => (n ? '---:' : ':---')).join(' | ')} |`,
  ];
  for (const r of rows) lines.push(`| ${cols.map((c) => esc(displayValue(r[c.name], c.digits))).join(' | ')} |`);
  return lines.join('\n') + '\n';
}

const LATEX_SPECIALS: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '&': '\\&',
  '%': '\\%',
  $: '\\$',
  '#': '\\#',
  _: '\\_',
  '{': '\\{',
  '}': '\\}',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
  '—': '---',
  '–': '--',
  '≥': '$\\geq$',
  '≤': '$\\leq$',
  '×': '$\\times$',
  '−': '$-$',
};

function latexEscape(s: string): string {
  return s.replace(/[\\&%$#_{}~^—–≥≤×−]/g, (ch) => LATEX_SPECIALS[ch] ?? ch);
}

/** A booktabs table (needs \usepackage{booktabs}). */
export function toLatex(spec: TableSpec & { caption?: string; label?: string }): string {
  const cols = columnsOf(spec);
  const rows = rowsOf(spec.table);
  const align = cols.map((c) => (rows.some((r) => typeof r[c.name] === 'number') ? 'r' : 'l')).join('');
  const out = ['\\begin{table}[t]', '\\centering'];
  if (spec.caption) out.push(`\\caption{${latexEscape(spec.caption)}}`);
  if (spec.label) out.push(`\\label{${spec.label}}`);
  out.push(`\\begin{tabular}{${align}}`, '\\toprule');
  out.push(`${cols.map((c) => latexEscape(c.label ?? c.name)).join(' & ')} \\\\`, '\\midrule');
  for (const r of rows) out.push(`${cols.map((c) => latexEscape(displayValue(r[c.name], c.digits))).join(' & ')} \\\\`);
  out.push('\\bottomrule', '\\end{tabular}', '\\end{table}');
  return out.join('\n') + '\n';
}

/** HTML <table> for the report (escaped). */
export function toHtmlTable(spec: TableSpec): string {
  const cols = columnsOf(spec);
  const rows = rowsOf(spec.table);
  const numeric = cols.map((c) => rows.some((r) => typeof r[c.name] === 'number'));
  const head = cols
    .map((c, i) => `<th${numeric[i] ? ' class="num"' : ''}>${escapeHtml(c.label ?? c.name)}</th>`)
    .join('');
  const body = rows
    .map(
      (r) =>
        `<tr>${cols.map((c, i) => `<td${numeric[i] ? ' class="num"' : ''}>${escapeHtml(displayValue(r[c.name], c.digits))}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return `<table>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
