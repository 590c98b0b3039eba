// StartupBench task scoring: score = sum(w*y)/sum(w) over rubric items, 0–100,
// success = score >= 90. Unjudged items are never counted as 0 or 1.
import type { Score, Verdict } from './trial-record.js';
import { SUCCESS_THRESHOLD } from './vocabulary.js';

export function scoreTask(verdicts: readonly Pick<Verdict, 'weight' | 'decision'>[]): Score {
  let total = 0;
  let decidedWeight = 0;
  let earned = 0;
  for (const v of verdicts) {
    total += v.weight;
    if (v.decision === 'unjudged') continue;
    decidedWeight += v.weight;
    if (v.decision === 'satisfied') earned += v.weight;
  }
  const complete = total > 0 && decidedWeight === total;
  const value = complete ? (100 * earned) / total : null;
  return {
    value,
    decided: decidedWeight > 0 ? (100 * earned) / decidedWeight : null,
    coverage: total > 0 ? decidedWeight / total : 0,
    success: value === null ? null : isSuccess(value),
  };
}

export function isSuccess(score: number): boolean {
  return score >= SUCCESS_THRESHOLD;
}
