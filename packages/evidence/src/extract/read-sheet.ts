// One worksheet -> SheetEvidence: its cells (formula kept apart from the cached value, number
// format and displayed text), dimension and merges, within the workbook's cell budget.
import { cellName } from '../a1.js';
import { msg } from '../messages.js';
import type { OoxmlPackage } from '../ooxml/package-parts.js';
import type { CellEvidence, SheetEvidence } from '../types.js';
import { formatCellValue } from './format-cell-value.js';
import { readCellValue } from './read-cell-value.js';
import { scanSheetXml, type RawCell } from './scan-sheet-xml.js';
import { SharedFormulas } from './shared-formulas.js';

export interface SheetContext {
  name: string;
  state: SheetEvidence['state'];
  part: string;
}

/** Cells kept across all sheets of a workbook, and all cells seen. */
export class CellBudget {
  kept = 0;
  total = 0;
  constructor(readonly max: number) {}
}

export interface WorkbookContext {
  shared: string[];
  /** Number format of each cell style (`s` attribute) index. */
  numFmtOfXf: string[];
  date1904: boolean;
  budget: CellBudget;
  maxDepth: number;
}

export function emptySheet(name: string, state: SheetEvidence['state']): SheetEvidence {
  return { name, state, dimension: null, rowCount: 0, cellCount: 0, cells: [], merges: [] };
}

export function readSheet(pkg: OoxmlPackage, ctx: SheetContext, wb: WorkbookContext): SheetEvidence {
  const sheet = emptySheet(ctx.name, ctx.state);
  const text = pkg.text(ctx.part);
  if (text === null) {
    pkg.notes.push(msg.missingPart(ctx.part));
    return sheet;
  }
  const formulas = new SharedFormulas();
  const rowsWithData = new Set<number>();
  const addCell = (c: RawCell, row: number, col: number) => {
    const formula = formulas.formulaOf(c.f, row, col);
    const value = readCellValue(c, wb.shared);
    if (value.kind === 'empty' && formula === undefined) return;
    wb.budget.total++;
    sheet.cellCount++;
    rowsWithData.add(row);
    if (wb.budget.kept >= wb.budget.max) {
      sheet.truncated = true;
      return;
    }
    wb.budget.kept++;
    const numFmt = wb.numFmtOfXf[Number(c.s ?? 0)] ?? 'General';
    const shown = formatCellValue(value, numFmt, wb.date1904);
    const out: CellEvidence = {
      ref: cellName(row, col),
      row,
      col,
      kind: shown.kind,
      value: value.value,
      text: shown.text,
    };
    if (formula !== undefined) {
      out.formula = formula;
      out.cached = shown.kind !== 'empty';
    }
    if (numFmt !== 'General') out.numFmt = numFmt;
    if (shown.date) out.date = shown.date;
    sheet.cells.push(out);
  };
  scanSheetXml(
    text,
    {
      cell: addCell,
      dimension: (ref) => {
        sheet.dimension = ref;
      },
      merge: (ref) => sheet.merges.push(ref),
    },
    wb.maxDepth,
  );
  sheet.rowCount = rowsWithData.size;
  return sheet;
}
