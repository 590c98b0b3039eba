// Text checks (contains / matches / absent) over a file's anchored text units, and files-agree.
// Nothing found decides: text-contains and text-matches are not satisfied, text-absent is satisfied,
// and a files-agree side that locates no value makes the files not agree — except where the evidence
// could hide it (text cut at a cap, a PDF without a text layer, an image): then cannot-evaluate.
import type { Check, CheckOutcome, Locator } from '@assay/core';
import { cellName, parseRange } from '../a1.js';
import { describeCell, hasText, textUnits } from '../view-access.js';
import { containsText, findPattern, normalize, PatternError } from '../match-text.js';
import { reason } from '../messages.js';
import type { FileView, SubmissionView, TextUnit } from '../types.js';
import {
  absence,
  cannotEvaluate,
  combine,
  looseNumber,
  notSatisfied,
  readableFile,
  satisfied,
  withinTolerance,
} from './check-support.js';
import { cellValue, lookupSheet, numericValue } from './cell-checks.js';

type TextContains = Extract<Check, { kind: 'text-contains' }>;
type TextMatches = Extract<Check, { kind: 'text-matches' }>;
type TextAbsent = Extract<Check, { kind: 'text-absent' }>;
type FilesAgree = Extract<Check, { kind: 'files-agree' }>;

const MAX_ANCHORS = 10;

function textFile(
  view: SubmissionView,
  path: string,
): { file: FileView; units: TextUnit[] } | { outcome: CheckOutcome } {
  const found = readableFile(view, path);
  if (found.outcome) return { outcome: found.outcome };
  if (!hasText(found.file)) return { outcome: cannotEvaluate(reason.noText(path, found.file.format)) };
  return { file: found.file, units: textUnits(found.file) };
}

function snippet(u: TextUnit): string {
  const t = u.text.replace(/\s+/g, ' ').trim();
  return `${u.anchor}: ${t.length > 160 ? `${t.slice(0, 160)}…` : t}`;
}

function anchorsOf(units: TextUnit[]): string[] {
  const anchors = [...new Set(units.map((u) => u.anchor))];
  return anchors.length > MAX_ANCHORS
    ? [...anchors.slice(0, MAX_ANCHORS), `… ${anchors.length - MAX_ANCHORS} more`]
    : anchors;
}

export function evaluateTextContains(check: TextContains | TextAbsent, view: SubmissionView): CheckOutcome {
  const got = textFile(view, check.file);
  if ('outcome' in got) return got.outcome;
  const hits = got.units.filter((u) => containsText(u.text, check.text, check.caseSensitive ?? false));
  const evidence = hits.slice(0, MAX_ANCHORS).map(snippet);
  if (check.kind === 'text-contains') {
    if (hits.length > 0) return satisfied(reason.textFound(check.text, anchorsOf(hits)), evidence);
    return absence(got.file, notSatisfied(reason.textNotFound(check.text, check.file)));
  }
  if (hits.length > 0) return notSatisfied(reason.textFound(check.text, anchorsOf(hits)), evidence);
  return absence(got.file, satisfied(reason.textAbsent(check.text, check.file)));
}

function patternOutcome(pattern: string, err: unknown): CheckOutcome {
  if (err instanceof PatternError)
    return cannotEvaluate(
      err.kind === 'timeout' ? reason.patternTimeout(pattern) : reason.badPattern(pattern, err.message),
    );
  throw err;
}

export function evaluateTextMatches(check: TextMatches, view: SubmissionView): CheckOutcome {
  const got = textFile(view, check.file);
  if ('outcome' in got) return got.outcome;
  try {
    const hits = findPattern(got.units, check.pattern, { maxHits: MAX_ANCHORS * 10 });
    const units = hits.map((h) => got.units[h.unit]!);
    if (hits.length > 0)
      return satisfied(reason.patternFound(check.pattern, anchorsOf(units)), units.slice(0, MAX_ANCHORS).map(snippet));
    return absence(got.file, notSatisfied(reason.patternNotFound(check.pattern, check.file)));
  } catch (err) {
    return patternOutcome(check.pattern, err);
  }
}

interface Located {
  display: string;
  number: number | null;
  text: string;
}

/** The value a locator points at: a cell's stored value, or a pattern's first capture (or match). */
function locate(view: SubmissionView, loc: Locator): Located | CheckOutcome {
  if ('cell' in loc) {
    const ref = parseRange(loc.cell);
    if (!ref) return cannotEvaluate(reason.badRange(loc.cell));
    const at = lookupSheet(view, loc.file, ref.sheet);
    if (at.outcome) return at.outcome;
    const got = cellValue(at.file!, at.sheet!, ref.top, ref.left, cellName(ref.top, ref.left));
    if ('outcome' in got) return got.outcome;
    return {
      display: `${got.anchor} = ${describeCell(got.cell)}`,
      number: numericValue(at.file!, got.cell),
      text: got.cell.text || String(got.cell.value),
    };
  }
  const tf = textFile(view, loc.file);
  if ('outcome' in tf) return tf.outcome;
  try {
    const hit = findPattern(tf.units, loc.pattern, { maxHits: 1 })[0];
    if (!hit) return absence(tf.file, notSatisfied(reason.locatorNotFound(loc.file, loc.pattern)));
    const value = hit.groups.find((g) => g !== '') ?? hit.match;
    return {
      display: `${loc.file} ${tf.units[hit.unit]!.anchor} = ${JSON.stringify(value)}`,
      number: looseNumber(value),
      text: value,
    };
  } catch (err) {
    return patternOutcome(loc.pattern, err);
  }
}

export function evaluateFilesAgree(check: FilesAgree, view: SubmissionView): CheckOutcome {
  const a = locate(view, check.a);
  const b = locate(view, check.b);
  // Both sides are looked at: a side that decidedly has no value decides, even if the other is unreadable.
  if ('status' in a || 'status' in b) return combine([a, b].filter((x): x is CheckOutcome => 'status' in x));
  const evidence = [a.display, b.display];
  const same =
    a.number !== null && b.number !== null
      ? withinTolerance(a.number, b.number, check.tolerance)
      : normalize(a.text, false) === normalize(b.text, false);
  return same
    ? satisfied(reason.agree(a.display, b.display), evidence)
    : notSatisfied(reason.disagree(a.display, b.display), evidence);
}
