// Number formats: whether a number is a date (ISO form then), and the text a spreadsheet
// program would display for a value under its cell's format.
import SSF from 'ssf';
import type { CellEvidence } from '../types.js';
import type { CellValue } from './read-cell-value.js';

export interface FormattedCell {
  /** `date` for a number under a date format. */
  kind: CellEvidence['kind'];
  text: string;
  date?: string;
}

export function formatCellValue(cell: CellValue, numFmt: string, date1904: boolean): FormattedCell {
  let kind = cell.kind;
  let date: string | undefined;
  if (kind === 'number' && isDateFormat(numFmt)) {
    date = isoDate(cell.value as number, date1904);
    if (date) kind = 'date';
  } else if (kind === 'date') date = String(cell.value);
  const text = displayText(cell.value, kind, numFmt, date1904);
  return date ? { kind, text, date } : { kind, text };
}

function isoDate(serial: number, date1904: boolean): string | undefined {
  try {
    const d = SSF.parse_date_code(serial, { date1904 });
    if (!d) return undefined;
    const p = (n: number, w = 2) => String(n).padStart(w, '0');
    const day = `${p(d.y, 4)}-${p(d.m)}-${p(d.d)}`;
    return d.H || d.M || d.S ? `${day}T${p(d.H)}:${p(d.M)}:${p(d.S)}` : day;
  } catch {
    return undefined;
  }
}

const dateFormats = new Map<string, boolean>();

/** Whether a number format shows dates (cached: formats repeat across thousands of cells). */
function isDateFormat(numFmt: string): boolean {
  let v = dateFormats.get(numFmt);
  if (v === undefined) {
    try {
      v = SSF.is_date(numFmt);
    } catch {
      v = false;
    }
    dateFormats.set(numFmt, v);
  }
  return v;
}

function displayText(
  value: CellEvidence['value'],
  kind: CellEvidence['kind'],
  numFmt: string,
  date1904: boolean,
): string {
  if (value === null) return '';
  if (kind === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value !== 'number') return String(value);
  // Fast path: General shows integers below 1e11 as written.
  if (numFmt === 'General' && Number.isInteger(value) && Math.abs(value) < 1e11) return String(value);
  try {
    return SSF.format(numFmt, value, { date1904 });
  } catch {
    return String(value);
  }
}
