// Judge reliability: agreement of binary judge decisions with expert labels, raw and as
// Cohen's kappa, pooled and per group (target, dimension...). Unjudged items are counted,
// never paired. Each label row is one comparison (several annotators give several rows).
import type { Decision } from '@assay/core';
import type { HumanLabel } from './human-labels.js';

export interface JudgedDecision {
  subject: string;
  item: string;
  decision: Decision;
  group?: string;
}

export interface AgreementStats {
  n: number;
  agree: number;
  /** agree / n; null when n = 0. */
  raw: number | null;
  /** Cohen's kappa; null when undefined (no pairs, or both raters constant on the same value). */
  kappa: number | null;
  judgeSatisfied: number;
  humanSatisfied: number;
}

export interface AgreementReport {
  pooled: AgreementStats;
  groups: Record<string, AgreementStats>;
  /** Labels whose item the judge left unjudged. */
  unjudged: number;
  /** Labels with no judged item at all. */
  unmatched: number;
}

type Pair = { judge: boolean; human: boolean };

export function agreementStats(pairs: readonly Pair[]): AgreementStats {
  const n = pairs.length;
  const agree = pairs.filter((p) => p.judge === p.human).length;
  const j1 = pairs.filter((p) => p.judge).length;
  const h1 = pairs.filter((p) => p.human).length;
  if (n === 0) return { n, agree, raw: null, kappa: null, judgeSatisfied: 0, humanSatisfied: 0 };
  const po = agree / n;
  const pe = (j1 / n) * (h1 / n) + (1 - j1 / n) * (1 - h1 / n);
  return { n, agree, raw: po, kappa: pe === 1 ? null : (po - pe) / (1 - pe), judgeSatisfied: j1, humanSatisfied: h1 };
}

export function computeAgreement(judged: readonly JudgedDecision[], labels: readonly HumanLabel[]): AgreementReport {
  const byKey = new Map(judged.map((j) => [`${j.subject}\u0000${j.item}`, j]));
  const pooled: Pair[] = [];
  const groups = new Map<string, Pair[]>();
  let unjudged = 0;
  let unmatched = 0;
  for (const l of labels) {
    const j = byKey.get(`${l.subject}\u0000${l.item}`);
    if (!j) {
      unmatched += 1;
      continue;
    }
    if (j.decision === 'unjudged') {
      unjudged += 1;
      continue;
    }
    const pair = { judge: j.decision === 'satisfied', human: l.label === 'satisfied' };
    pooled.push(pair);
    const g = l.group ?? j.group;
    if (g !== undefined) groups.set(g, [...(groups.get(g) ?? []), pair]);
  }
  return {
    pooled: agreementStats(pooled),
    groups: Object.fromEntries(
      [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([g, ps]) => [g, agreementStats(ps)]),
    ),
    unjudged,
    unmatched,
  };
}

/**
 * Success-level agreement (StartupBench: score >= 90 by judge vs by experts), over subjects
 * where both sides decided every weighted item.
 */
export function successAgreement(
  judged: readonly JudgedDecision[],
  labels: readonly HumanLabel[],
  weightOf: (subject: string, item: string) => number,
  threshold = 90,
): AgreementStats {
  const humans = new Map(labels.map((l) => [`${l.subject}\u0000${l.item}`, l.label === 'satisfied']));
  const subjects = new Map<string, { w: number; j: number; h: number; complete: boolean }>();
  for (const d of judged) {
    const s = subjects.get(d.subject) ?? { w: 0, j: 0, h: 0, complete: true };
    const human = humans.get(`${d.subject}\u0000${d.item}`);
    const w = weightOf(d.subject, d.item);
    if (d.decision === 'unjudged' || human === undefined) s.complete = false;
    s.w += w;
    if (d.decision === 'satisfied') s.j += w;
    if (human) s.h += w;
    subjects.set(d.subject, s);
  }
  const pairs = [...subjects.values()]
    .filter((s) => s.complete && s.w > 0)
    .map((s) => ({ judge: (100 * s.j) / s.w >= threshold, human: (100 * s.h) / s.w >= threshold }));
  return agreementStats(pairs);
}
