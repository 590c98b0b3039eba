// Spreadsheet checks: cell-value, formula-cached, row-count, and the cell side of files-agree.
// A formula cell whose file stores no cached result has no value in the artifact: checks on its
// value are not satisfied (the paper's "formula exists; cached None" case), with that as the reason.
// Nothing found decides too: a file that is not a spreadsheet by content has no cells, a missing
// sheet or an empty cell holds no value (not-satisfied) — unless the workbook was cut at an evidence budget.
import type { Check, CheckOutcome } from '@assay/core';
import { cellName, parseRange, sheetAnchor } from '../a1.js';
import { cellAt, describeCell, findSheet, sheetsOf } from '../view-access.js';
import type { SheetLike } from '../view-access.js';
import { findPattern, PatternError } from '../match-text.js';
import { reason } from '../messages.js';
import type { CellEvidence, FileView, SubmissionView } from '../types.js';
import {
  absence,
  cannotEvaluate,
  looseNumber,
  notSatisfied,
  readableFile,
  satisfied,
  textTruncated,
  withinTolerance,
} from './check-support.js';

type CellValueCheck = Extract<Check, { kind: 'cell-value' }>;
type FormulaCachedCheck = Extract<Check, { kind: 'formula-cached' }>;
type RowCountCheck = Extract<Check, { kind: 'row-count' }>;

const MAX_EXAMPLES = 10;

interface SheetLookup {
  file?: FileView;
  sheet?: SheetLike;
  outcome?: CheckOutcome;
}

export function lookupSheet(view: SubmissionView, path: string, sheetName: string | null): SheetLookup {
  const found = readableFile(view, path);
  if (found.outcome) return { outcome: found.outcome };
  const sheets = sheetsOf(found.file);
  // The rubric names a spreadsheet (validation checks the declared format): another format is the agent's.
  if (!sheets) return { outcome: notSatisfied(reason.needsSpreadsheet(path, found.file.format)) };
  const sheet = findSheet(found.file, sheets, sheetName);
  if (!sheet)
    return {
      outcome: absence(
        found.file,
        notSatisfied(
          reason.sheetMissing(
            path,
            sheetName ?? '(unnamed)',
            sheets.map((s) => s.name),
          ),
        ),
      ),
    };
  return { file: found.file, sheet };
}

/** The value a cell holds in the artifact, or the outcome explaining why it holds none. */
export function cellValue(
  file: FileView,
  sheet: SheetLike,
  row: number,
  col: number,
  ref: string,
): { cell: CellEvidence; anchor: string } | { outcome: CheckOutcome } {
  const anchor = `${file.path} ${sheetAnchor(sheet.name, ref)}`;
  const cell = cellAt(sheet, row, col);
  if (!cell || (cell.kind === 'empty' && cell.formula === undefined))
    return {
      outcome: textTruncated(file)
        ? cannotEvaluate(reason.cellsCut(anchor), file.notes)
        : notSatisfied(reason.cellEmpty(anchor)),
    };
  if (cell.formula !== undefined && !cell.cached)
    return { outcome: notSatisfied(reason.formulaNoCache(anchor, cell.formula), [`${anchor}: ${describeCell(cell)}`]) };
  return { cell, anchor };
}

/** Numeric reading of a cell: numbers and dates as stored; csv text leniently ("1,200.50"). */
export function numericValue(file: FileView, cell: CellEvidence): number | null {
  if (typeof cell.value === 'number') return cell.value;
  if (file.evidence?.format === 'csv' && typeof cell.value === 'string') return looseNumber(cell.value);
  return null;
}

export function evaluateCellValue(check: CellValueCheck, view: SubmissionView): CheckOutcome {
  const ref = parseRange(check.cell);
  if (!ref) return cannotEvaluate(reason.badRange(check.cell));
  const at = lookupSheet(view, check.file, ref.sheet);
  if (at.outcome) return at.outcome;
  const { file, sheet } = at as { file: FileView; sheet: SheetLike };
  const got = cellValue(file, sheet, ref.top, ref.left, cellName(ref.top, ref.left));
  if ('outcome' in got) return got.outcome;
  const { cell, anchor } = got;
  const evidence = [`${anchor}: ${describeCell(cell)}`];
  if (check.equals === undefined && check.min === undefined && check.max === undefined && check.matches === undefined)
    return cannotEvaluate(reason.noCondition, evidence);
  const shown = cell.text || String(cell.value);
  if (check.equals !== undefined) {
    const want = check.equals;
    if (typeof want === 'number') {
      const v = numericValue(file, cell);
      if (v === null) return notSatisfied(reason.notNumber(anchor, JSON.stringify(shown)), evidence);
      if (!withinTolerance(v, want, check.tolerance))
        return notSatisfied(reason.notEqual(anchor, String(v), String(want)), evidence);
    } else if (typeof want === 'boolean') {
      if (cell.value !== want) return notSatisfied(reason.notEqual(anchor, shown, String(want)), evidence);
    } else {
      const candidates = [cell.text, String(cell.value), cell.date ?? ''].map((s) => s.trim());
      if (!candidates.includes(want.trim()))
        return notSatisfied(reason.notEqual(anchor, JSON.stringify(shown), JSON.stringify(want)), evidence);
    }
  }
  if (check.min !== undefined || check.max !== undefined) {
    const v = numericValue(file, cell);
    if (v === null) return notSatisfied(reason.notNumber(anchor, JSON.stringify(shown)), evidence);
    if ((check.min !== undefined && v < check.min) || (check.max !== undefined && v > check.max)) {
      return notSatisfied(reason.outOfRange(anchor, v, check.min, check.max), evidence);
    }
  }
  if (check.matches !== undefined) {
    try {
      const hits = findPattern(
        [
          { anchor, text: cell.text },
          { anchor, text: String(cell.value) },
        ],
        check.matches,
        { maxHits: 1 },
      );
      if (hits.length === 0)
        return notSatisfied(reason.noMatch(anchor, JSON.stringify(shown), check.matches), evidence);
    } catch (err) {
      if (err instanceof PatternError)
        return cannotEvaluate(
          err.kind === 'timeout' ? reason.patternTimeout(check.matches) : reason.badPattern(check.matches, err.message),
        );
      throw err;
    }
  }
  return satisfied(reason.cellOk(anchor, shown), evidence);
}

export function evaluateFormulaCached(check: FormulaCachedCheck, view: SubmissionView): CheckOutcome {
  const ref = parseRange(check.range);
  if (!ref) return cannotEvaluate(reason.badRange(check.range));
  const found = readableFile(view, check.file);
  if (found.outcome) return found.outcome;
  if (found.file.evidence?.format === 'csv')
    return notSatisfied(reason.needsSpreadsheet(check.file, 'csv, which stores no formulas'));
  const at = lookupSheet(view, check.file, ref.sheet);
  if (at.outcome) return at.outcome;
  const sheet = at.sheet!;
  const cells = sheet.cells.filter(
    (c) =>
      c.row >= ref.top &&
      c.row <= ref.bottom &&
      c.col >= ref.left &&
      c.col <= ref.right &&
      (c.kind !== 'empty' || c.formula !== undefined),
  );
  const where = `${check.file} ${check.range}`;
  if (cells.length === 0)
    return textTruncated(found.file)
      ? cannotEvaluate(reason.absenceUnsure(reason.rangeEmpty(where), check.file), found.file.notes)
      : notSatisfied(reason.rangeEmpty(where));
  const problems: string[] = [];
  for (const c of cells) {
    const anchor = sheetAnchor(sheet.name, c.ref);
    if (c.formula === undefined) problems.push(reason.notFormula(anchor, describeCell(c)));
    else if (!c.cached) problems.push(reason.formulaNoCache(anchor, c.formula));
    else if (c.kind === 'error') problems.push(reason.cachedError(anchor, c.formula, String(c.value)));
  }
  if (problems.length > 0) {
    const more =
      problems.length > MAX_EXAMPLES ? [`… and ${problems.length - MAX_EXAMPLES} more of ${cells.length} cells`] : [];
    return notSatisfied(`${problems.length} of ${cells.length} cells in ${where} fail: ${problems[0]}`, [
      ...problems.slice(0, MAX_EXAMPLES),
      ...more,
    ]);
  }
  return satisfied(
    reason.formulasCached(cells.length, where),
    cells.slice(0, MAX_EXAMPLES).map((c) => `${sheetAnchor(sheet.name, c.ref)}: ${describeCell(c)}`),
  );
}

export function evaluateRowCount(check: RowCountCheck, view: SubmissionView): CheckOutcome {
  const at = lookupSheet(view, check.file, check.sheet);
  if (at.outcome) return at.outcome;
  const sheet = at.sheet!;
  if (check.min === undefined && check.max === undefined) return cannotEvaluate(reason.noCondition);
  const n = sheet.rowCount;
  const why = reason.rowCount(check.file, sheet.name, n, check.min, check.max);
  const ok = (check.min === undefined || n >= check.min) && (check.max === undefined || n <= check.max);
  // Rows are counted over the whole sheet, also past the cell cap: the count decides either way.
  return ok ? satisfied(why) : notSatisfied(why);
}
