// The evidence view as text a judge reads. Every piece carries the anchor that the checks, search
// and readCellRange use: `Sheet1!B3`, `slide 4`, `page 2`, `paragraph 7`, `table 1 row 2`, `line 3`.
import { sheetAnchor } from './a1.js';
import { describeCell } from './view-access.js';
import type { ChartEvidence, FileView, SubmissionView } from './types.js';

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
  const out: string[] = [];
  if (!ev) return out;
  switch (ev.format) {
    case 'xlsx':
      for (const s of ev.sheets) {
        const meta = [s.state, s.dimension ?? 'no dimension', `${s.rowCount} rows`, `${s.cellCount} cells`];
        out.push(
          `### sheet ${JSON.stringify(s.name)} (${meta.join(', ')})${s.merges.length ? ` merged: ${s.merges.join(' ')}` : ''}`,
        );
        for (const c of s.cells.slice(0, opts.maxCellsPerSheet)) {
          out.push(
            `${sheetAnchor(s.name, c.ref)}: ${describeCell(c)}${c.numFmt ? ` {${c.numFmt}}` : ''}${c.comment ? ` (comment: ${c.comment})` : ''}`,
          );
        }
        const hidden = s.cells.length - Math.min(s.cells.length, opts.maxCellsPerSheet);
        if (hidden > 0) out.push(`… ${hidden} more cells in this sheet (read them by range)`);
      }
      ev.charts.forEach((ch, i) =>
        out.push(...chartLines(ch, `chart ${i + 1}${ch.location ? ` on ${ch.location}` : ''}`)),
      );
      if (ev.definedNames.length)
        out.push(
          `defined names: ${ev.definedNames.map((d) => `${d.name} = ${d.refersTo}${d.scope ? ` (in ${d.scope})` : ''}`).join('; ')}`,
        );
      break;
    case 'docx':
      for (const b of ev.blocks) {
        if (b.type === 'paragraph') {
          const tag =
            b.headingLevel === 0
              ? ' (title)'
              : b.headingLevel !== undefined
                ? ` (heading ${b.headingLevel})`
                : b.list
                  ? ' (list)'
                  : '';
          out.push(`[paragraph ${b.index}]${tag} ${b.text}`);
        } else out.push(`[table ${b.index}]`, ...table(b.rows));
      }
      ev.headers.forEach((h, i) => out.push(`[header ${i + 1}] ${h}`));
      ev.footers.forEach((h, i) => out.push(`[footer ${i + 1}] ${h}`));
      ev.footnotes.forEach((h, i) => out.push(`[footnote ${i + 1}] ${h}`));
      for (const c of ev.comments) out.push(`[comment ${c.id}] ${c.author ? `${c.author}: ` : ''}${c.text}`);
      break;
    case 'pptx':
      for (const s of ev.slides) {
        out.push(`### slide ${s.index}${s.title ? ` — ${s.title}` : ''}${s.hidden ? ' (hidden)' : ''}`);
        out.push(...s.texts);
        s.tables.forEach((t, i) => out.push(`[slide ${s.index} table ${i + 1}]`, ...table(t)));
        s.charts.forEach((ch, i) => out.push(...chartLines(ch, `slide ${s.index} chart ${i + 1}`)));
        for (const img of s.images) out.push(`[slide ${s.index} image] ${img.name}${img.alt ? `: ${img.alt}` : ''}`);
        if (s.notes) out.push(`[slide ${s.index} notes] ${s.notes}`);
      }
      break;
    case 'pdf':
      out.push(
        `${ev.pageCount} pages${
          Object.keys(ev.info).length
            ? `; ${Object.entries(ev.info)
                .map(([k, v]) => `${k}: ${v}`)
                .join('; ')}`
            : ''
        }`,
      );
      for (const p of ev.pages) out.push(`### page ${p.page}`, p.text);
      break;
    case 'png':
    case 'jpg':
    case 'svg':
      out.push(`image ${ev.width ?? '?'}x${ev.height ?? '?'} (${ev.format})`);
      break;
    case 'csv':
      ev.rows.forEach((r, i) => out.push(`row ${i + 1}: ${r.join(' | ')}`));
      break;
    default:
      if (ev.headings.length)
        out.push(`headings: ${ev.headings.map((h) => `${'#'.repeat(h.level)} ${h.text} (line ${h.line})`).join('; ')}`);
      out.push(...numbered(ev.text));
  }
  return out;
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
