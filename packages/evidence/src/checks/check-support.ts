// Shared pieces of the deterministic checks: outcomes and the file lookup rules every check follows.
//   file absent or not a regular file  -> not-satisfied (the deliverable named by the rubric is not there)
//   file present but unreadable        -> cannot-evaluate (evidence is missing, not negative)
// and what "nothing found" means inside a readable file: an absence decides (not-satisfied, or
// satisfied for text-absent) unless the evidence was cut at a cap or holds no text layer at all,
// where the absence may be ours rather than the artifact's (cannot-evaluate, for the judge).
import type { CheckOutcome } from '@assay/core';
import { findFile, similarPaths, textUnits } from '../view-access.js';
import { reason } from '../messages.js';
import type { FileView, SubmissionView } from '../types.js';

export const satisfied = (why: string, evidence: string[] = []): CheckOutcome => ({
  status: 'satisfied',
  reason: why,
  evidence,
});
export const notSatisfied = (why: string, evidence: string[] = []): CheckOutcome => ({
  status: 'not-satisfied',
  reason: why,
  evidence,
});
export const cannotEvaluate = (why: string, evidence: string[] = []): CheckOutcome => ({
  status: 'cannot-evaluate',
  reason: why,
  evidence,
});

export type FileLookup = { file: FileView; outcome?: undefined } | { file?: undefined; outcome: CheckOutcome };

export function manifestLine(f: FileView): string {
  return `${f.path}: ${f.type}, ${f.size} bytes${f.sha256 ? `, sha256 ${f.sha256.slice(0, 16)}…` : ''}`;
}

/** A readable file at `path`, or the outcome that stands in for it. */
export function readableFile(view: SubmissionView, path: string): FileLookup {
  const file = findFile(view, path);
  if (!file) {
    const similar = similarPaths(view, path);
    return { outcome: notSatisfied(reason.fileMissing(path), similar.length ? [reason.similarNames(similar)] : []) };
  }
  if (file.entry !== 'file') return { outcome: notSatisfied(reason.fileNotRegular(path), file.notes) };
  if (!file.evidence) return { outcome: cannotEvaluate(reason.fileUnreadable(path, file.notes), [manifestLine(file)]) };
  return { file };
}

/** True when the file's text or cells were cut at a cap, so an absence cannot be concluded. */
export function textTruncated(file: FileView): boolean {
  return file.notes.some((n) => /truncated|only the first/.test(n));
}

/** A PDF without a single line of extractable text (scanned pages): its words are only in the page images. */
function lacksTextLayer(file: FileView): boolean {
  return file.evidence?.format === 'pdf' && textUnits(file).length === 0;
}

/** The outcome of finding nothing in `file`: decided, unless the evidence could have hidden it. */
export function absence(file: FileView, decided: CheckOutcome): CheckOutcome {
  if (textTruncated(file)) return cannotEvaluate(reason.absenceUnsure(decided.reason, file.path), file.notes);
  if (lacksTextLayer(file)) return cannotEvaluate(reason.noTextLayer(file.path));
  return decided;
}

/** Combines several outcomes: any not-satisfied wins, then any cannot-evaluate, else satisfied. */
export function combine(outcomes: CheckOutcome[]): CheckOutcome {
  const pick = (s: CheckOutcome['status']) => outcomes.filter((o) => o.status === s);
  const failed = pick('not-satisfied');
  const unknown = pick('cannot-evaluate');
  const group = failed.length ? failed : unknown.length ? unknown : outcomes;
  const status = failed.length ? 'not-satisfied' : unknown.length ? 'cannot-evaluate' : 'satisfied';
  return { status, reason: group.map((o) => o.reason).join('; '), evidence: outcomes.flatMap((o) => o.evidence) };
}

/** Parses a number as written in a document: grouping commas, a unicode minus, optional %. */
export function looseNumber(text: string): number | null {
  const t = text
    .trim()
    .replace(/[\u00a0\u202f\s]/g, '')
    .replace('−', '-');
  const m = /^([-+]?)(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?(%)?$/.exec(t);
  if (!m || (m[2] === undefined && m[4] === undefined)) return null;
  const n = Number(`${m[1]}${(m[2] ?? '0').replace(/,/g, '')}${m[4] ?? ''}`);
  return m[5] ? n / 100 : n;
}

export function withinTolerance(a: number, b: number, tolerance: number | undefined): boolean {
  const tol = tolerance ?? 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  return Math.abs(a - b) <= tol;
}
