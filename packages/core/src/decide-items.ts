// How an item is decided — the one rule for rubric items, checkpoint criteria, final-package
// criteria and re-judging alike, as a pure function of what was observed:
//   1. reuse: an earlier decided verdict whose reuse key is unchanged (nothing it looked at changed);
//   2. check: the item's deterministic check, when it could evaluate;
//   3. judge: the judge's answer, when a judge is configured and answered;
//   4. otherwise unjudged, with the reason — never silently 0 or 1.
// The I/O around it (running checks, calling the judge) is activities/src/evaluate-items.ts.
import type { CheckOutcome } from './check-schema.js';
import type { JudgeAnswer } from './judge-protocol.js';
import type { Decision } from './trial-record.js';

export interface ItemToDecide {
  id: string;
  /** Hash of (criterion, the artifacts it looks at, evidence context, judge setup). */
  reuseKey: string;
  /** Ref of the earlier verdict this item may reuse (`subtask/criterion`). */
  reuses?: string | undefined;
  hasCheck: boolean;
}

export interface PriorVerdict {
  decision: Decision;
  reason: string;
  reuseKey: string;
}

export type DecisionSource = 'check' | 'judge' | 'reused' | 'none';

export interface ItemDecision {
  id: string;
  decision: Decision;
  source: DecisionSource;
  reason: string;
  evidence: string[];
  reusedFrom: string | null;
  reuseKey: string;
  /** Judge metadata (identity, usage...) and the check's outcome when both ran. */
  judge?: Record<string, unknown> | undefined;
}

export interface DecideInput {
  items: readonly ItemToDecide[];
  /** Earlier verdicts by ref, for reuse. */
  prior?: ReadonlyMap<string, PriorVerdict> | undefined;
  /** Outcomes of the items' checks, by item id. */
  checks?: ReadonlyMap<string, CheckOutcome> | undefined;
  /** The judge's answers by item id; null when no judge is configured. */
  answers: ReadonlyMap<string, JudgeAnswer> | null;
}

export const decisionMessages = {
  checksOnly: 'no judge configured (judge.mode is checks-only)',
  checkCannotEvaluate: (reason: string) => `check could not evaluate: ${reason}`,
  judgeSilent: 'the judge returned no decision for this item',
  reused: (ref: string, reason: string) => `unchanged since ${ref}: ${reason}`,
};

/** Decide every item in order; see the header for the precedence. */
export function decideItems(input: DecideInput): ItemDecision[] {
  return input.items.map((item) => decideOne(item, input));
}

/** Items still undecided after reuse and checks: what goes to the judge. */
export function itemsNeedingJudge(input: Omit<DecideInput, 'answers'>): ItemToDecide[] {
  return input.items.filter((item) => {
    if (reusable(item, input.prior)) return false;
    const check = checkOf(item, input.checks);
    return !check || check.status === 'cannot-evaluate';
  });
}

/** Items an earlier verdict decides, so their checks need not run. */
export function reusedItems(items: readonly ItemToDecide[], prior?: ReadonlyMap<string, PriorVerdict>): Set<string> {
  return new Set(items.filter((item) => reusable(item, prior)).map((item) => item.id));
}

function reusable(item: ItemToDecide, prior: ReadonlyMap<string, PriorVerdict> | undefined): PriorVerdict | null {
  const earlier = item.reuses ? prior?.get(item.reuses) : undefined;
  return earlier && earlier.reuseKey === item.reuseKey && earlier.decision !== 'unjudged' ? earlier : null;
}

/** An item's check outcome; only an item that has a check can be decided by one. */
function checkOf(item: ItemToDecide, checks: ReadonlyMap<string, CheckOutcome> | undefined): CheckOutcome | undefined {
  return item.hasCheck ? checks?.get(item.id) : undefined;
}

function decideOne(item: ItemToDecide, input: DecideInput): ItemDecision {
  const base = { id: item.id, reuseKey: item.reuseKey, reusedFrom: null, evidence: [] };
  const earlier = reusable(item, input.prior);
  if (earlier && item.reuses) {
    const reason = decisionMessages.reused(item.reuses, earlier.reason);
    return { ...base, decision: earlier.decision, source: 'reused', reason, reusedFrom: item.reuses };
  }
  const check = checkOf(item, input.checks);
  if (check && check.status !== 'cannot-evaluate') {
    return { ...base, decision: check.status, source: 'check', reason: check.reason, evidence: [...check.evidence] };
  }
  const checkNote = check ? { check: { status: check.status, reason: check.reason } } : {};
  const answer = input.answers?.get(item.id);
  if (answer && answer.decision !== 'unjudged') {
    const judge = { ...answer.meta, ...checkNote };
    return {
      ...base,
      decision: answer.decision,
      source: 'judge',
      reason: answer.reason,
      evidence: [...answer.evidence],
      judge,
    };
  }
  const reason = answer
    ? answer.reason
    : check
      ? decisionMessages.checkCannotEvaluate(check.reason)
      : input.answers === null
        ? decisionMessages.checksOnly
        : decisionMessages.judgeSilent;
  const judge = answer ? { ...answer.meta, ...checkNote } : undefined;
  return { ...base, decision: 'unjudged', source: check ? 'check' : 'none', reason, judge };
}
