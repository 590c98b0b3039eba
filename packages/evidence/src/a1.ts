// A1-style references: `B3`, `Sheet1!B3`, `'My Sheet'!A1:C5`.

function colToIndex(col: string): number {
  let n = 0;
  for (const ch of col.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

function indexToCol(index: number): string {
  let s = '';
  let n = index;
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

export function cellName(row: number, col: number): string {
  return `${indexToCol(col)}${row}`;
}

export function parseCell(ref: string): { row: number; col: number } | null {
  const m = /^\$?([A-Za-z]{1,3})\$?([0-9]{1,7})$/.exec(ref.trim());
  if (!m) return null;
  const col = colToIndex(m[1]!);
  const row = Number(m[2]);
  if (row < 1 || col < 1 || col > 16_384 || row > 1_048_576) return null;
  return { row, col };
}

export interface RangeRef {
  sheet: string | null;
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** Splits `Sheet!A1:B2` into sheet and corners; the sheet may be quoted with '' escapes. */
export function parseRange(ref: string): RangeRef | null {
  const bang = ref.lastIndexOf('!');
  let sheet: string | null = null;
  let area = ref;
  if (bang !== -1) {
    sheet = ref.slice(0, bang).trim();
    if (sheet.startsWith("'") && sheet.endsWith("'") && sheet.length >= 2)
      sheet = sheet.slice(1, -1).replace(/''/g, "'");
    area = ref.slice(bang + 1);
  }
  const [a, b] = area.split(':');
  const start = a ? parseCell(a) : null;
  const end = b === undefined ? start : parseCell(b);
  if (!start || !end) return null;
  return {
    sheet,
    top: Math.min(start.row, end.row),
    left: Math.min(start.col, end.col),
    bottom: Math.max(start.row, end.row),
    right: Math.max(start.col, end.col),
  };
}

export function sheetAnchor(sheet: string, ref: string): string {
  const plain = /^[A-Za-z_][A-Za-z0-9_.]*$/.test(sheet) && !/^[A-Za-z]{1,3}[0-9]+$/.test(sheet);
  return `${plain ? sheet : `'${sheet.replace(/'/g, "''")}'`}!${ref}`;
}

/**
 * Moves the relative references of a shared formula from its anchor cell to another cell, the way a
 * spreadsheet program fills it (absolute `$` parts stay; text in quotes is left alone).
 */
export function shiftFormula(formula: string, dRow: number, dCol: number): string {
  if (dRow === 0 && dCol === 0) return formula;
  const parts = formula.split(/("(?:[^"]|"")*"|'(?:[^']|'')*')/);
  return parts
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replace(
            /(^|[^A-Za-z0-9_.$'"\]])(\$?)([A-Z]{1,3})(\$?)([0-9]+)(?![A-Za-z0-9_(])/g,
            (whole, pre: string, cAbs: string, col: string, rAbs: string, row: string) => {
              const c = cAbs ? colToIndex(col) : colToIndex(col) + dCol;
              const r = rAbs ? Number(row) : Number(row) + dRow;
              if (c < 1 || r < 1) return whole;
              return `${pre}${cAbs}${indexToCol(c)}${rAbs}${r}`;
            },
          ),
    )
    .join('');
}
