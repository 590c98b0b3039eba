// Map a judge verdict onto core's trial-record Verdict (StartupBench rubric items).
import { IMPORTANCE_WEIGHTS, type Criterion, type FinalCriterion, type RubricItem, type Verdict } from '@assay/core';
import type { JudgeItem, JudgeVerdict } from './types.js';

export function toCoreVerdict(v: JudgeVerdict, item: RubricItem): Verdict {
  const judge: Record<string, unknown> = { evidence: v.evidence };
  if (v.unjudgedReason) judge.unjudgedReason = v.unjudgedReason;
  if (v.check) judge.check = v.check;
  if (v.judge) Object.assign(judge, v.judge);
  return {
    itemId: v.itemId,
    importance: item.importance,
    dimension: item.dimension,
    weight: IMPORTANCE_WEIGHTS[item.importance],
    decision: v.decision,
    source: v.source,
    reason: v.reason,
    judge,
  };
}

/** Rubric items as the judge sees them (group = dimension, for agreement reports). */
export function rubricJudgeItems(items: readonly RubricItem[]): JudgeItem[] {
  return items.map((i) => ({ id: i.id, text: i.text, group: i.dimension, ...(i.check ? { check: i.check } : {}) }));
}

/**
 * DeliverBench criteria as judge items. Group = target for final criteria, quality dimension for
 * checkpoint criteria. `artifacts` (the files a criterion is about) and `contextKey` (the
 * requirements in effect) narrow the reuse key; see JudgeItem.
 */
export function criteriaJudgeItems(
  criteria: readonly (Criterion | FinalCriterion)[],
  scope: { artifacts?: string[]; contextKey?: string } = {},
): JudgeItem[] {
  return criteria.map((c) => ({
    id: c.id,
    text: c.text,
    group: 'target' in c ? c.target : c.dimension,
    ...(c.check ? { check: c.check } : {}),
    ...(scope.artifacts ? { artifacts: scope.artifacts } : {}),
    ...(scope.contextKey ? { contextKey: scope.contextKey } : {}),
  }));
}
