// A cell's stored (cached) value by its type attribute. A formula whose <v> is empty has NO
// cached value — openpyxl writes those — and reads as `empty` here, whatever the formula.
import type { CellEvidence } from '../types.js';
import type { RawCell } from './scan-sheet-xml.js';

export interface CellValue {
  kind: CellEvidence['kind'];
  value: CellEvidence['value'];
}

const EMPTY: CellValue = { kind: 'empty', value: null };

export function readCellValue(c: RawCell, shared: readonly string[]): CellValue {
  const v = c.v;
  const given = v !== undefined && v !== '';
  switch (c.t) {
    case 's': {
      const s = given ? shared[Number(v)] : undefined;
      return s !== undefined ? { kind: 'string', value: s } : EMPTY;
    }
    case 'inlineStr':
      return c.inline !== undefined ? { kind: 'string', value: c.inline } : EMPTY;
    case 'str':
      return v !== undefined ? { kind: 'string', value: v } : EMPTY;
    case 'b':
      return given ? { kind: 'boolean', value: v === '1' || v.toLowerCase() === 'true' } : EMPTY;
    case 'e':
      return given ? { kind: 'error', value: v } : EMPTY;
    case 'd':
      return given ? { kind: 'date', value: v } : EMPTY;
    default:
      return readNumber(v);
  }
}

/** Untyped (`n` or absent): a number, or the text itself when it does not parse as one. */
function readNumber(v: string | undefined): CellValue {
  if (v === undefined || v.trim() === '') return EMPTY;
  const n = Number(v);
  return Number.isFinite(n) ? { kind: 'number', value: n } : { kind: 'string', value: v };
}
