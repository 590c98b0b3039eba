// Deterministic rubric checks over an evidence view. Pure: no I/O, the view holds all it needs.
// Each returns satisfied / not-satisfied / cannot-evaluate with the evidence it used, and never
// guesses: when the artifact does not let it decide, the answer is cannot-evaluate.
import type { Check, CheckOutcome } from '@assay/core';
import { reason } from '../messages.js';
import type { SubmissionView } from '../types.js';
import { findFile, similarPaths } from '../view-access.js';
import { manifestLine, notSatisfied, satisfied, cannotEvaluate } from './check-support.js';
import { evaluateCellValue, evaluateFormulaCached, evaluateRowCount } from './cell-checks.js';
import { evaluateFilesAgree, evaluateTextContains, evaluateTextMatches } from './text-checks.js';
import { evaluateSectionPresent } from './section-check.js';

type DeliverableCheck = Extract<Check, { kind: 'deliverable-present' }>;

/** The paper's output-format compliance: the file exists and its content is of the required format. */
function evaluateDeliverable(check: DeliverableCheck, view: SubmissionView): CheckOutcome {
  const file = findFile(view, check.path);
  if (!file) {
    const similar = similarPaths(view, check.path);
    return notSatisfied(reason.fileMissing(check.path), similar.length ? [reason.similarNames(similar)] : []);
  }
  const evidence = [manifestLine(file), ...file.notes];
  if (file.entry !== 'file') return notSatisfied(reason.fileNotRegular(check.path), evidence);
  if (file.size === 0) return notSatisfied(reason.fileEmpty(check.path), evidence);
  if (check.format === undefined) return satisfied(reason.present(check.path, file.type), evidence);
  if (file.format === check.format) return satisfied(reason.rightFormat(check.path, check.format), evidence);
  if (file.type === 'unparsed') return cannotEvaluate(reason.fileUnreadable(check.path, file.notes), evidence);
  return notSatisfied(reason.wrongFormat(check.path, check.format, file.type), evidence);
}

export function evaluateCheck(check: Check, view: SubmissionView): CheckOutcome {
  switch (check.kind) {
    case 'deliverable-present':
      return evaluateDeliverable(check, view);
    case 'cell-value':
      return evaluateCellValue(check, view);
    case 'formula-cached':
      return evaluateFormulaCached(check, view);
    case 'text-contains':
    case 'text-absent':
      return evaluateTextContains(check, view);
    case 'text-matches':
      return evaluateTextMatches(check, view);
    case 'files-agree':
      return evaluateFilesAgree(check, view);
    case 'row-count':
      return evaluateRowCount(check, view);
    case 'section-present':
      return evaluateSectionPresent(check, view);
    default: {
      const unknown: never = check;
      return cannotEvaluate(`unknown check kind ${JSON.stringify((unknown as { kind?: unknown }).kind)}`);
    }
  }
}
