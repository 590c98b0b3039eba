// Lookups over a SubmissionView shared by checks, the text renderer and the judge tools: files by
// path, spreadsheets (xlsx sheets, or a csv as one sheet named after the file), cells, text units.
import { posix } from 'node:path';
import { cellName, sheetAnchor } from './a1.js';
import type {
  CellEvidence,
  ChartEvidence,
  DocxEvidence,
  FileEvidence,
  FileView,
  SlideEvidence,
  SubmissionView,
  TextUnit,
  XlsxEvidence,
} from './types.js';

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
  const raw = rawValue(c);
  if (c.formula === undefined) return `${shown}${raw}`;
  return c.cached ? `=${c.formula} → ${shown}${raw}` : `=${c.formula} → (no cached value)`;
}

/** ` [value]` when a number or date displays differently from its stored value. */
function rawValue(c: CellEvidence): string {
  return (c.kind === 'number' || c.kind === 'date') && String(c.value) !== c.text ? ` [${c.value}]` : '';
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
  const units = file.evidence ? evidenceUnits(file.evidence) : [];
  unitCache.set(file, units);
  return units;
}

function evidenceUnits(ev: FileEvidence): TextUnit[] {
  switch (ev.format) {
    case 'xlsx':
      return xlsxUnits(ev);
    case 'docx':
      return docxUnits(ev);
    case 'pptx':
      return ev.slides.flatMap(slideUnits);
    case 'pdf':
      return ev.pages.filter((p) => p.text).map((p) => ({ anchor: `page ${p.page}`, text: p.text }));
    case 'csv':
      return ev.rows.map((r, i) => ({ anchor: `row ${i + 1}`, text: r.join(', ') }));
    case 'md':
    case 'txt':
    case 'json':
    case 'html':
    case 'code':
      return lines(ev.text);
    default:
      return [];
  }
}

function xlsxUnits(ev: XlsxEvidence): TextUnit[] {
  return [
    ...ev.sheets.flatMap((s) => s.cells.flatMap((c) => cellUnits(s.name, c))),
    ...ev.charts.map((ch, i) => ({
      anchor: `chart ${i + 1}${ch.location ? ` (${ch.location})` : ''}`,
      text: chartText(ch),
    })),
    ...ev.definedNames.map((d) => ({ anchor: `name ${d.name}`, text: `${d.name} = ${d.refersTo}` })),
  ];
}

function cellUnits(sheetName: string, c: CellEvidence): TextUnit[] {
  const anchor = sheetAnchor(sheetName, c.ref);
  const out: TextUnit[] = [];
  if (c.text !== '') out.push({ anchor, text: `${c.text}${rawValue(c)}` });
  if (c.formula !== undefined) out.push({ anchor, text: `=${c.formula}` });
  if (c.comment) out.push({ anchor: `${anchor} comment`, text: c.comment });
  return out;
}

/** A chart's title and each series as `name: category=value, …`, one per line. */
function chartText(ch: ChartEvidence): string {
  const series = ch.series.map(
    (s) => `${s.name ?? ''}: ${s.categories.map((c, k) => `${c ?? ''}=${s.values[k] ?? ''}`).join(', ')}`,
  );
  return [ch.title ?? '', ...series].filter(Boolean).join('\n');
}

function docxUnits(ev: DocxEvidence): TextUnit[] {
  return [
    ...ev.blocks.flatMap((b) =>
      b.type === 'paragraph'
        ? [{ anchor: `paragraph ${b.index}`, text: b.text }]
        : b.rows.map((r, i) => ({ anchor: `table ${b.index} row ${i + 1}`, text: r.join(' | ') })),
    ),
    ...ev.headers.map((h, i) => ({ anchor: `header ${i + 1}`, text: h })),
    ...ev.footers.map((h, i) => ({ anchor: `footer ${i + 1}`, text: h })),
    ...ev.footnotes.map((h, i) => ({ anchor: `footnote ${i + 1}`, text: h })),
    ...ev.comments.map((c) => ({ anchor: `comment ${c.id}`, text: c.text })),
  ];
}

function slideUnits(s: SlideEvidence): TextUnit[] {
  const a = `slide ${s.index}`;
  return [
    ...(s.title ? [{ anchor: a, text: s.title }] : []),
    ...s.texts.map((t) => ({ anchor: a, text: t })),
    ...s.tables.flatMap((tbl, ti) =>
      tbl.map((r, ri) => ({ anchor: `${a} table ${ti + 1} row ${ri + 1}`, text: r.join(' | ') })),
    ),
    ...s.charts.map((ch, ci) => ({ anchor: `${a} chart ${ci + 1}`, text: chartText(ch) })),
    ...s.images.filter((img) => img.alt).map((img) => ({ anchor: `${a} image`, text: img.alt })),
    ...(s.notes ? [{ anchor: `${a} notes`, text: s.notes }] : []),
  ];
}

export function hasText(file: FileView): boolean {
  const f = file.evidence?.format;
  return f !== undefined && f !== 'png' && f !== 'jpg' && f !== 'svg';
}
