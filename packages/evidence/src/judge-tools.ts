// Read helpers the judge package exposes as tools: read a cell range, search the text.
import { cellName, parseRange, sheetAnchor } from './a1.js';
import { cellAt, describeCell, findFile, findSheet, sheetsOf, textUnits } from './view-access.js';
import { containsText, findPattern, PatternError } from './match-text.js';
import type { CellEvidence, SubmissionView } from './types.js';

export type CellRangeResult =
  | { ok: true; file: string; sheet: string; range: string; rows: Array<Array<CellEvidence | null>>; text: string }
  | { ok: false; error: string };

const MAX_RANGE_CELLS = 10_000;

/**
 * Cells of `range` (`Sheet1!A1:C5`, or `A1:C5` when the workbook has one sheet). `file` may be
 * omitted when the submission holds exactly one spreadsheet.
 */
export function readCellRange(view: SubmissionView, range: string, opts: { file?: string } = {}): CellRangeResult {
  const ref = parseRange(range);
  if (!ref) return { ok: false, error: `${range} is not a cell range like Sheet1!A1:C5` };
  const books = view.files.filter((f) => sheetsOf(f) !== null);
  const file = opts.file !== undefined ? findFile(view, opts.file) : books.length === 1 ? books[0] : undefined;
  if (!file) {
    return {
      ok: false,
      error:
        opts.file !== undefined
          ? `${opts.file} is not in the submission`
          : `name the file: spreadsheets here are ${books.map((b) => b.path).join(', ') || 'none'}`,
    };
  }
  const sheets = sheetsOf(file);
  if (!sheets)
    return {
      ok: false,
      error: `${file.path} is ${file.type}, not a readable spreadsheet${file.notes.length ? ` (${file.notes.join('; ')})` : ''}`,
    };
  const sheet = findSheet(file, sheets, ref.sheet);
  if (!sheet)
    return {
      ok: false,
      error: `${file.path} has no sheet ${JSON.stringify(ref.sheet ?? '')}; sheets: ${sheets.map((s) => s.name).join(', ')}`,
    };
  const count = (ref.bottom - ref.top + 1) * (ref.right - ref.left + 1);
  if (count > MAX_RANGE_CELLS)
    return { ok: false, error: `${range} spans ${count} cells; read at most ${MAX_RANGE_CELLS} at a time` };
  const rows: Array<Array<CellEvidence | null>> = [];
  const lines: string[] = [];
  for (let r = ref.top; r <= ref.bottom; r++) {
    const row: Array<CellEvidence | null> = [];
    for (let c = ref.left; c <= ref.right; c++) {
      const cell = cellAt(sheet, r, c) ?? null;
      row.push(cell);
      if (cell)
        lines.push(
          `${sheetAnchor(sheet.name, cellName(r, c))}: ${describeCell(cell)}${cell.numFmt ? ` {${cell.numFmt}}` : ''}`,
        );
    }
    rows.push(row);
  }
  const label = `${sheetAnchor(sheet.name, cellName(ref.top, ref.left))}:${cellName(ref.bottom, ref.right)}`;
  return {
    ok: true,
    file: file.path,
    sheet: sheet.name,
    range: label,
    rows,
    text: lines.length ? lines.join('\n') : `${label} is empty`,
  };
}

export interface SearchHit {
  file: string;
  anchor: string;
  text: string;
}

export interface SearchOptions {
  /** Restrict to one file. */
  file?: string;
  /** Treat the query as a regular expression. */
  regex?: boolean;
  caseSensitive?: boolean;
  maxHits?: number;
}

/** Finds `query` across the submission's text; each hit names its file and anchor. */
export function searchText(
  view: SubmissionView,
  query: string,
  opts: SearchOptions = {},
): { hits: SearchHit[]; truncated: boolean; error?: string } {
  const maxHits = opts.maxHits ?? 50;
  const hits: SearchHit[] = [];
  const files = opts.file !== undefined ? view.files.filter((f) => f.path === opts.file) : view.files;
  for (const f of files) {
    const units = textUnits(f);
    let matched: number[];
    if (opts.regex) {
      try {
        const pattern = opts.caseSensitive || query.startsWith('(?i)') ? query : `(?i)${query}`;
        matched = findPattern(units, pattern, { maxHits: maxHits + 1 - hits.length }).map((h) => h.unit);
      } catch (err) {
        if (err instanceof PatternError) return { hits, truncated: false, error: err.message };
        throw err;
      }
    } else {
      matched = [];
      units.forEach((u, i) => {
        if (containsText(u.text, query, opts.caseSensitive ?? false)) matched.push(i);
      });
    }
    for (const i of matched) {
      const u = units[i]!;
      const t = u.text.replace(/\s+/g, ' ').trim();
      hits.push({ file: f.path, anchor: u.anchor, text: t.length > 300 ? `${t.slice(0, 300)}…` : t });
      if (hits.length > maxHits) return { hits: hits.slice(0, maxHits), truncated: true };
    }
  }
  return { hits, truncated: false };
}
