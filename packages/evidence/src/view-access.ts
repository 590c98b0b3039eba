// Lookups over a SubmissionView shared by checks, the text renderer and the judge tools: files by
// path, spreadsheets (xlsx sheets, or a csv as one sheet named after the file), cells, text units.
import { posix } from 'node:path';
import { cellName, sheetAnchor } from './a1.js';
import type { CellEvidence, FileView, SubmissionView, TextUnit } from './types.js';

export function findFile(view: SubmissionView, path: string): FileView | undefined {
  const want = posix.normalize(path.replace(/\\/g, '/')).replace(/^\.\//, '');
  return view.files.find((f) => f.path === want);
}

/** Paths that differ from `path` only by case or folder: shown to say "did you mean". */
export function similarPaths(view: SubmissionView, path: string): string[] {
  const base = posix.basename(path).toLowerCase();
  return view.files
    .filter(
      (f) =>
        f.path !== path &&
        (f.path.toLowerCase() === path.toLowerCase() || posix.basename(f.path).toLowerCase() === base),
    )
    .map((f) => f.path);
}

export interface SheetLike {
  name: string;
  cells: CellEvidence[];
  rowCount: number;
  merges: string[];
  state: string;
}

const sheetCache = new WeakMap<FileView, SheetLike[]>();
const cellIndex = new WeakMap<SheetLike, Map<string, CellEvidence>>();

function csvSheet(file: FileView, rows: string[][]): SheetLike {
  const cells: CellEvidence[] = [];
  rows.forEach((row, r) =>
    row.forEach((text, c) => {
      if (text === '') return;
      const trimmed = text.trim();
      const n = trimmed === '' ? NaN : Number(trimmed);
      cells.push({
        ref: cellName(r + 1, c + 1),
        row: r + 1,
        col: c + 1,
        kind: Number.isFinite(n) ? 'number' : 'string',
        value: Number.isFinite(n) ? n : text,
        text,
      });
    }),
  );
  const name = posix.basename(file.path).replace(/\.[^.]*$/, '');
  return {
    name,
    cells,
    rowCount: rows.filter((r) => r.some((x) => x.trim() !== '')).length,
    merges: [],
    state: 'visible',
  };
}

/** The sheets of a spreadsheet file (xlsx, or csv as a single sheet), or null for other files. */
export function sheetsOf(file: FileView): SheetLike[] | null {
  const ev = file.evidence;
  if (!ev || (ev.format !== 'xlsx' && ev.format !== 'csv')) return null;
  let sheets = sheetCache.get(file);
  if (!sheets) {
    sheets = ev.format === 'xlsx' ? ev.sheets : [csvSheet(file, ev.rows)];
    sheetCache.set(file, sheets);
  }
  return sheets;
}

/** Sheet by name, as spreadsheet programs match it (case-insensitive); a csv answers to any name. */
export function findSheet(file: FileView, sheets: SheetLike[], name: string | null): SheetLike | undefined {
  if (file.evidence?.format === 'csv') return sheets[0];
  if (name === null) return sheets.length === 1 ? sheets[0] : undefined;
  return sheets.find((s) => s.name === name) ?? sheets.find((s) => s.name.toLowerCase() === name.toLowerCase());
}

export function cellAt(sheet: SheetLike, row: number, col: number): CellEvidence | undefined {
  let idx = cellIndex.get(sheet);
  if (!idx) {
    idx = new Map(sheet.cells.map((c) => [`${c.row}:${c.col}`, c]));
    cellIndex.set(sheet, idx);
  }
  return idx.get(`${row}:${col}`);
}

/** How a cell reads in evidence: displayed text, raw value when it differs, formula and cache state. */
export function describeCell(c: CellEvidence): string {
  const shown = c.kind === 'string' ? JSON.stringify(c.text) : c.text;
  const raw = (c.kind === 'number' || c.kind === 'date') && String(c.value) !== c.text ? ` [${c.value}]` : '';
  if (c.formula === undefined) return `${shown}${raw}`;
  return c.cached ? `=${c.formula} → ${shown}${raw}` : `=${c.formula} → (no cached value)`;
}

function lines(text: string, prefix = 'line'): TextUnit[] {
  const out: TextUnit[] = [];
  text.split(/\r?\n/).forEach((l, i) => {
    if (l.trim() !== '') out.push({ anchor: `${prefix} ${i + 1}`, text: l });
  });
  return out;
}

const unitCache = new WeakMap<FileView, TextUnit[]>();

/** Every piece of text in a file, each with its stable anchor. */
export function textUnits(file: FileView): TextUnit[] {
  const cached = unitCache.get(file);
  if (cached) return cached;
  const ev = file.evidence;
  const out: TextUnit[] = [];
  if (ev) {
    switch (ev.format) {
      case 'xlsx':
        for (const s of ev.sheets) {
          for (const c of s.cells) {
            const a = sheetAnchor(s.name, c.ref);
            if (c.text !== '')
              out.push({
                anchor: a,
                text:
                  (c.kind === 'number' || c.kind === 'date') && String(c.value) !== c.text
                    ? `${c.text} [${c.value}]`
                    : c.text,
              });
            if (c.formula !== undefined) out.push({ anchor: a, text: `=${c.formula}` });
            if (c.comment) out.push({ anchor: `${a} comment`, text: c.comment });
          }
        }
        ev.charts.forEach((ch, i) => {
          const series = ch.series.map(
            (s) => `${s.name ?? ''}: ${s.categories.map((c, k) => `${c ?? ''}=${s.values[k] ?? ''}`).join(', ')}`,
          );
          out.push({
            anchor: `chart ${i + 1}${ch.location ? ` (${ch.location})` : ''}`,
            text: [ch.title ?? '', ...series].filter(Boolean).join('\n'),
          });
        });
        for (const d of ev.definedNames) out.push({ anchor: `name ${d.name}`, text: `${d.name} = ${d.refersTo}` });
        break;
      case 'docx':
        for (const b of ev.blocks) {
          if (b.type === 'paragraph') out.push({ anchor: `paragraph ${b.index}`, text: b.text });
          else b.rows.forEach((r, i) => out.push({ anchor: `table ${b.index} row ${i + 1}`, text: r.join(' | ') }));
        }
        ev.headers.forEach((h, i) => out.push({ anchor: `header ${i + 1}`, text: h }));
        ev.footers.forEach((h, i) => out.push({ anchor: `footer ${i + 1}`, text: h }));
        ev.footnotes.forEach((h, i) => out.push({ anchor: `footnote ${i + 1}`, text: h }));
        for (const c of ev.comments) out.push({ anchor: `comment ${c.id}`, text: c.text });
        break;
      case 'pptx':
        for (const s of ev.slides) {
          const a = `slide ${s.index}`;
          if (s.title) out.push({ anchor: a, text: s.title });
          for (const t of s.texts) out.push({ anchor: a, text: t });
          s.tables.forEach((tbl, ti) =>
            tbl.forEach((r, ri) => out.push({ anchor: `${a} table ${ti + 1} row ${ri + 1}`, text: r.join(' | ') })),
          );
          s.charts.forEach((ch, ci) =>
            out.push({
              anchor: `${a} chart ${ci + 1}`,
              text: [
                ch.title ?? '',
                ...ch.series.map(
                  (x) => `${x.name ?? ''}: ${x.categories.map((c, k) => `${c ?? ''}=${x.values[k] ?? ''}`).join(', ')}`,
                ),
              ]
                .filter(Boolean)
                .join('\n'),
            }),
          );
          for (const img of s.images) if (img.alt) out.push({ anchor: `${a} image`, text: img.alt });
          if (s.notes) out.push({ anchor: `${a} notes`, text: s.notes });
        }
        break;
      case 'pdf':
        for (const p of ev.pages) if (p.text) out.push({ anchor: `page ${p.page}`, text: p.text });
        break;
      case 'csv':
        ev.rows.forEach((r, i) => out.push({ anchor: `row ${i + 1}`, text: r.join(', ') }));
        break;
      case 'md':
      case 'txt':
      case 'json':
      case 'html':
      case 'code':
        out.push(...lines(ev.text));
        break;
      default:
        break;
    }
  }
  unitCache.set(file, out);
  return out;
}

export function hasText(file: FileView): boolean {
  const f = file.evidence?.format;
  return f !== undefined && f !== 'png' && f !== 'jpg' && f !== 'svg';
}
