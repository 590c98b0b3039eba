// Spreadsheet anchors as @assay/evidence writes them (`Summary!B2`, `'Capex Plan'!B2:B4`).

export interface CellRange {
  sheet: string;
  c1: number;
  r1: number;
  c2: number;
  r2: number;
}

function colNumber(letters: string): number {
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

export function parseCellAnchor(anchor: string): CellRange | null {
  const m = /^(?:'((?:[^']|'')+)'|([A-Za-z0-9_.]+))!([A-Z]{1,3})(\d+)(?::([A-Z]{1,3})(\d+))?$/.exec(anchor);
  if (!m) return null;
  const sheet = (m[1] ?? m[2] ?? '').replaceAll("''", "'");
  const c1 = colNumber(m[3] ?? 'A');
  const r1 = Number(m[4]);
  return { sheet, c1, r1, c2: m[5] ? colNumber(m[5]) : c1, r2: m[6] ? Number(m[6]) : r1 };
}

export function inRange(range: CellRange | null, sheet: string, row: number, col: number): boolean {
  return (
    !!range &&
    range.sheet.toLowerCase() === sheet.toLowerCase() &&
    row >= range.r1 &&
    row <= range.r2 &&
    col >= range.c1 &&
    col <= range.c2
  );
}

export function colLetters(col: number): string {
  let s = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/**
 * A cell's anchor as the reviewer picks it (`Summary!B4`, `'Capex Plan'!B4`): the sheet quoted when its name is
 * not a plain word or starts like a cell reference (`'Q1'!B4`), so `findAnchors` and `parseCellAnchor` read it back.
 */
export function cellAnchor(sheet: string, row: number, col: number): string {
  const plain = /^[A-Za-z0-9_.]+$/.test(sheet) && !/^[A-Za-z]{1,3}\d/.test(sheet);
  return `${plain ? sheet : `'${sheet.replaceAll("'", "''")}'`}!${colLetters(col)}${row}`;
}
