// One worksheet -> SheetEvidence: its cells (formula kept apart from the cached value, number
// format and displayed text), dimension and merges, within the file's output budget. Every cell
// seen is counted; a cell is kept only if the budget holds all of its strings.
import { cellName } from '../a1.js';
import { msg } from '../messages.js';
import type { OoxmlPackage } from '../ooxml/package-parts.js';
import type { CellEvidence, SheetEvidence } from '../types.js';
import type { OutputBudget } from './output-budget.js';
import { formatCellValue } from './format-cell-value.js';
import { readCellValue } from './read-cell-value.js';
import { scanSheetXml, type RawCell } from './scan-sheet-xml.js';
import { SharedFormulas } from './shared-formulas.js';

export interface SheetContext {
  name: string;
  state: SheetEvidence['state'];
  part: string;
}

export interface WorkbookContext {
  shared: string[];
  /** Number format of each cell style (`s` attribute) index. */
  numFmtOfXf: string[];
  date1904: boolean;
  budget: OutputBudget;
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
    sheet.cellCount++;
    rowsWithData.add(row);
    if (wb.budget.closed('cells')) {
      // Past the budget cells are only counted, and only until the time budget ends too.
      if (wb.budget.msLeft() < 0) throw new ScanStopped();
      wb.budget.take('cells');
      sheet.truncated = true;
      return;
    }
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
    if (!wb.budget.take('cells', cellChars(out))) {
      sheet.truncated = true;
      return;
    }
    sheet.cells.push(out);
  };
  try {
    scanSheet(text, sheet, addCell, wb);
  } catch (err) {
    if (!(err instanceof ScanStopped)) throw err;
    wb.budget.skip('cells', 0, false);
  }
  sheet.rowCount = rowsWithData.size;
  return sheet;
}

/** Thrown out of the scan to stop counting cells that will not be kept. */
class ScanStopped extends Error {}

function scanSheet(
  text: string,
  sheet: SheetEvidence,
  addCell: (c: RawCell, row: number, col: number) => void,
  wb: WorkbookContext,
): void {
  scanSheetXml(
    text,
    {
      cell: addCell,
      dimension: (ref) => {
        sheet.dimension = ref;
      },
      merge: (ref) => {
        if (wb.budget.take('merges', ref.length)) sheet.merges.push(ref);
      },
    },
    wb.maxDepth,
  );
}

/** Characters a cell puts into the evidence: every string it carries (a string value appears twice). */
export function cellChars(c: CellEvidence): number {
  return (
    c.ref.length +
    c.text.length +
    (typeof c.value === 'string' ? c.value.length : 0) +
    (c.formula?.length ?? 0) +
    (c.numFmt?.length ?? 0) +
    (c.date?.length ?? 0) +
    (c.comment?.length ?? 0)
  );
}
