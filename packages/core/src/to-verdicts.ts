// Item decisions in the record's shapes: a rubric item's Verdict (tasks) and a criterion's
// verdict (projects). Weights come from the protocol, never from the decision.
import type { Criterion, FinalCriterion, RubricItem } from './benchmark-schema.js';
import type { ItemDecision } from './decide-items.js';
import type { UnscoredCriterionVerdict } from './score-criteria.js';
import type { Verdict } from './trial-record.js';
import { IMPORTANCE_WEIGHTS } from './vocabulary.js';

export function toTaskVerdict(item: RubricItem, d: ItemDecision): Verdict {
  const judge = d.judge || d.evidence.length > 0 ? { ...d.judge, evidence: d.evidence } : undefined;
  return {
    itemId: item.id,
    importance: item.importance,
    dimension: item.dimension,
    weight: IMPORTANCE_WEIGHTS[item.importance],
    decision: d.decision,
    // Task records predate reuse; a task item is never reused.
    source: d.source === 'reused' ? 'judge' : d.source,
    reason: d.reason,
    ...(judge ? { judge } : {}),
  };
}

export function toCriterionVerdict(c: Criterion | FinalCriterion, d: ItemDecision): UnscoredCriterionVerdict {
  const judge = d.judge || d.evidence.length > 0 ? { ...d.judge, evidence: d.evidence } : undefined;
  return {
    criterionId: c.id,
    weight: c.weight,
    fatal: c.fatal,
    dimension: c.dimension,
    target: 'target' in c ? c.target : null,
    decision: d.decision,
    source: d.source,
    reason: d.reason,
    reusedFrom: d.reusedFrom,
    reuseKey: d.reuseKey,
    ...(judge ? { judge } : {}),
  };
}

/** Every criterion unjudged with one reason: evaluation failed after its retries. */
export function unjudgedCriterionVerdicts(
  criteria: readonly (Criterion | FinalCriterion)[],
  reason: string,
): UnscoredCriterionVerdict[] {
  const none = { decision: 'unjudged', source: 'none', reason, evidence: [], reusedFrom: null, reuseKey: '' } as const;
  return criteria.map((c) => toCriterionVerdict(c, { id: c.id, ...none, evidence: [] }));
}
