// The evidence view as text a judge reads. Every piece carries the anchor that the checks, search
// and readCellRange use: `Sheet1!B3`, `slide 4`, `page 2`, `paragraph 7`, `table 1 row 2`, `line 3`.
import { sheetAnchor } from './a1.js';
import { describeCell } from './view-access.js';
import type {
  ChartEvidence,
  DocxEvidence,
  FileView,
  PdfEvidence,
  SheetEvidence,
  SlideEvidence,
  SubmissionView,
  TextEvidence,
  XlsxEvidence,
} from './types.js';

export interface RenderTextOptions {
  /** Cells listed per sheet before the listing is cut (the rest stay reachable via readCellRange). */
  maxCellsPerSheet?: number;
  /** Characters per file before its text is cut. */
  maxCharsPerFile?: number;
}

function chartLines(ch: ChartEvidence, anchor: string): string[] {
  const head = `[${anchor}] ${ch.types.join(', ') || 'chart'}${ch.title ? ` "${ch.title}"` : ''}`;
  return [
    head,
    ...ch.series.map((s) => {
      const pts = s.values.length
        ? s.values.map((v, i) => `${s.categories[i] ?? i + 1}=${v ?? '∅'}`).join(', ')
        : '(no cached values)';
      return `  series ${JSON.stringify(s.name ?? '')}${s.valuesRef ? ` (${s.valuesRef})` : ''}: ${pts}`;
    }),
  ];
}

function table(rows: string[][]): string[] {
  return rows.map((r) => `| ${r.map((c) => c.replace(/\n/g, ' / ')).join(' | ')} |`);
}

function numbered(text: string): string[] {
  const lines = text.split(/\r?\n/);
  const w = String(lines.length).length;
  return lines.map((l, i) => `${String(i + 1).padStart(w)} | ${l}`);
}

function fileBody(f: FileView, opts: Required<RenderTextOptions>): string[] {
  const ev = f.evidence;
  if (!ev) return [];
  switch (ev.format) {
    case 'xlsx':
      return xlsxLines(ev, opts.maxCellsPerSheet);
    case 'docx':
      return docxLines(ev);
    case 'pptx':
      return ev.slides.flatMap(slideLines);
    case 'pdf':
      return [pdfSummary(ev), ...ev.pages.flatMap((p) => [`### page ${p.page}`, p.text])];
    case 'png':
    case 'jpg':
    case 'svg':
      return [`image ${ev.width ?? '?'}x${ev.height ?? '?'} (${ev.format})`];
    case 'csv':
      return ev.rows.map((r, i) => `row ${i + 1}: ${r.join(' | ')}`);
    default:
      return textLines(ev);
  }
}

function xlsxLines(ev: XlsxEvidence, maxCellsPerSheet: number): string[] {
  const out = ev.sheets.flatMap((s) => sheetLines(s, maxCellsPerSheet));
  ev.charts.forEach((ch, i) => out.push(...chartLines(ch, `chart ${i + 1}${ch.location ? ` on ${ch.location}` : ''}`)));
  if (ev.definedNames.length)
    out.push(
      `defined names: ${ev.definedNames.map((d) => `${d.name} = ${d.refersTo}${d.scope ? ` (in ${d.scope})` : ''}`).join('; ')}`,
    );
  return out;
}

function sheetLines(s: SheetEvidence, maxCells: number): string[] {
  const meta = [s.state, s.dimension ?? 'no dimension', `${s.rowCount} rows`, `${s.cellCount} cells`];
  const out = [
    `### sheet ${JSON.stringify(s.name)} (${meta.join(', ')})${s.merges.length ? ` merged: ${s.merges.join(' ')}` : ''}`,
    ...s.cells
      .slice(0, maxCells)
      .map(
        (c) =>
          `${sheetAnchor(s.name, c.ref)}: ${describeCell(c)}${c.numFmt ? ` {${c.numFmt}}` : ''}${c.comment ? ` (comment: ${c.comment})` : ''}`,
      ),
  ];
  const hidden = s.cells.length - Math.min(s.cells.length, maxCells);
  if (hidden > 0) out.push(`… ${hidden} more cells in this sheet (read them by range)`);
  return out;
}

function docxLines(ev: DocxEvidence): string[] {
  return [
    ...ev.blocks.flatMap((b) =>
      b.type === 'paragraph'
        ? [`[paragraph ${b.index}]${paragraphTag(b)} ${b.text}`]
        : [`[table ${b.index}]`, ...table(b.rows)],
    ),
    ...ev.headers.map((h, i) => `[header ${i + 1}] ${h}`),
    ...ev.footers.map((h, i) => `[footer ${i + 1}] ${h}`),
    ...ev.footnotes.map((h, i) => `[footnote ${i + 1}] ${h}`),
    ...ev.comments.map((c) => `[comment ${c.id}] ${c.author ? `${c.author}: ` : ''}${c.text}`),
  ];
}

function paragraphTag(b: { headingLevel?: number; list?: boolean }): string {
  if (b.headingLevel === 0) return ' (title)';
  if (b.headingLevel !== undefined) return ` (heading ${b.headingLevel})`;
  return b.list ? ' (list)' : '';
}

function slideLines(s: SlideEvidence): string[] {
  const out = [`### slide ${s.index}${s.title ? ` — ${s.title}` : ''}${s.hidden ? ' (hidden)' : ''}`, ...s.texts];
  s.tables.forEach((t, i) => out.push(`[slide ${s.index} table ${i + 1}]`, ...table(t)));
  s.charts.forEach((ch, i) => out.push(...chartLines(ch, `slide ${s.index} chart ${i + 1}`)));
  for (const img of s.images) out.push(`[slide ${s.index} image] ${img.name}${img.alt ? `: ${img.alt}` : ''}`);
  if (s.notes) out.push(`[slide ${s.index} notes] ${s.notes}`);
  return out;
}

/** The page count, then the document info as `key: value` pairs. */
function pdfSummary(ev: PdfEvidence): string {
  const info = Object.entries(ev.info).map(([k, v]) => `${k}: ${v}`);
  return `${ev.pageCount} pages${info.length ? `; ${info.join('; ')}` : ''}`;
}

function textLines(ev: TextEvidence): string[] {
  const headings = ev.headings.map((h) => `${'#'.repeat(h.level)} ${h.text} (line ${h.line})`);
  return [...(headings.length ? [`headings: ${headings.join('; ')}`] : []), ...numbered(ev.text)];
}

export function renderFileText(f: FileView, options: RenderTextOptions = {}): string {
  const opts = {
    maxCellsPerSheet: options.maxCellsPerSheet ?? 2000,
    maxCharsPerFile: options.maxCharsPerFile ?? 400_000,
  };
  const lines = [`## ${f.path} (${f.type})`];
  for (const n of f.notes) lines.push(`note: ${n}`);
  let body = fileBody(f, opts).join('\n');
  if (body.length > opts.maxCharsPerFile)
    body = `${body.slice(0, opts.maxCharsPerFile)}\n… text cut at ${opts.maxCharsPerFile} characters (search or read ranges for the rest)`;
  if (body) lines.push(body);
  if (f.pageImages?.length) lines.push(`page images: ${f.pageImages.join(', ')}`);
  return lines.join('\n');
}

export function renderSubmissionText(view: SubmissionView, options: RenderTextOptions = {}): string {
  const out = [`# Evidence view: ${view.files.length} entries`, '', '## Manifest'];
  for (const f of view.files) {
    out.push(
      `- ${f.path} — ${f.type}${f.format && f.format !== f.type ? ` (${f.format})` : ''}, ${f.size} bytes${f.sha256 ? `, sha256 ${f.sha256}` : ''}`,
    );
  }
  if (view.notes.length) out.push('', '## Submission notes', ...view.notes.map((n) => `- ${n}`));
  for (const f of view.files) out.push('', renderFileText(f, options));
  return `${out.join('\n')}\n`;
}

/** The structured form: the view itself, as stable JSON. */
export function renderSubmissionJson(view: SubmissionView): string {
  return `${JSON.stringify(view, null, 2)}\n`;
}
