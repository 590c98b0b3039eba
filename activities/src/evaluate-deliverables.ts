// Evaluation of a single-task submission: deterministic checks first, then the
// judge (when configured); whatever neither decides stays explicitly unjudged.
import type { Check, CheckOutcome, DeliverableEntry, Format, RubricItem, TaskSpec, Verdict } from '@assay/core';
import { IMPORTANCE_WEIGHTS } from '@assay/core';

/** The evidence operations evaluation needs; the worker injects @assay/evidence. */
export interface EvidenceTools {
  detectFormat(file: string): Promise<Format | null>;
  /** Build whatever view `evaluateCheck` needs over a submission folder. */
  buildView(dir: string): Promise<unknown>;
  evaluateCheck(check: Check, view: unknown): Promise<CheckOutcome> | CheckOutcome;
}

export interface FormatCompliance {
  required: boolean;
  compliant: boolean;
  missing: string[];
  wrongType: string[];
}

/** Output-format compliance (StartupBench Table 5): deterministic, from file types. */
export function assessFormatCompliance(spec: TaskSpec, deliverables: readonly DeliverableEntry[]): FormatCompliance {
  const byPath = new Map(deliverables.map((d) => [d.path, d]));
  const stem = (p: string): string => p.replace(/\.[^./]+$/, '');
  const missing: string[] = [];
  const wrongType: string[] = [];
  for (const out of spec.outputs.filter((o) => o.required)) {
    const found = byPath.get(out.path);
    if (found) {
      if (found.detectedFormat !== out.format) wrongType.push(out.path);
    } else if (deliverables.some((d) => stem(d.path) === stem(out.path))) {
      wrongType.push(out.path);
    } else {
      missing.push(out.path);
    }
  }
  return {
    required: spec.formatRequired,
    compliant: missing.length === 0 && wrongType.length === 0,
    missing,
    wrongType,
  };
}

export function verdictFromCheck(item: RubricItem, outcome: CheckOutcome): Verdict {
  const base = {
    itemId: item.id,
    importance: item.importance,
    dimension: item.dimension,
    weight: IMPORTANCE_WEIGHTS[item.importance],
  };
  if (outcome.status === 'cannot-evaluate') {
    return { ...base, decision: 'unjudged', source: 'check', reason: `check could not evaluate: ${outcome.reason}` };
  }
  return { ...base, decision: outcome.status, source: 'check', reason: outcome.reason };
}

export function unjudgedVerdict(item: RubricItem, reason: string): Verdict {
  return {
    itemId: item.id,
    importance: item.importance,
    dimension: item.dimension,
    weight: IMPORTANCE_WEIGHTS[item.importance],
    decision: 'unjudged',
    source: 'none',
    reason,
  };
}
