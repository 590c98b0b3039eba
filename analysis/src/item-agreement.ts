// How far two runs' verdicts on the same items agree: the judge-ablation half of `assay compare`, and what the
// report's judge-setup table reads. Items are paired by system pair, task, trial and item id (the pairing the
// flipped items of the comparison use); agreement and Cohen's kappa count items decided on both sides, and the
// items one side decided and the other left unjudged are counted apart, never as a disagreement.
import type { TrialRecord, Verdict } from '@assay/core';
import { cohenKappa } from './cohen-kappa.js';

export interface VerdictPair {
  system: string;
  task: string;
  trial: number;
  itemId: string;
  a: Verdict;
  b: Verdict;
}

export interface ItemAgreement {
  /** The system pair (`a` or `a | b`), or `all` for every pair pooled. */
  system: string;
  /** Items decided (satisfied or not) on both sides. */
  n: number;
  agree: number;
  /** Percent of `n`; null when n = 0. */
  agreement: number | null;
  kappa: number | null;
  /** Both satisfied, A only, B only, neither (of the `n`). */
  table: { both1: number; aOnly: number; bOnly: number; both0: number };
  /** Items decided on one side only. */
  decidedAOnly: number;
  decidedBOnly: number;
}

const decided = (v: Verdict): boolean => v.decision !== 'unjudged';

/** Every item both runs recorded for the same task and trial of a system pair. */
export function pairVerdicts(ra: readonly TrialRecord[], rb: readonly TrialRecord[], system: string): VerdictPair[] {
  const byKey = new Map(rb.map((r) => [`${r.task.id}/${r.trial}`, r]));
  const out: VerdictPair[] = [];
  for (const x of ra) {
    const y = byKey.get(`${x.task.id}/${x.trial}`);
    if (!y) continue;
    const other = new Map(y.verdicts.map((v) => [v.itemId, v]));
    for (const v of x.verdicts) {
      const w = other.get(v.itemId);
      if (w) out.push({ system, task: x.task.id, trial: x.trial, itemId: v.itemId, a: v, b: w });
    }
  }
  return out;
}

export function itemAgreement(system: string, pairs: readonly VerdictPair[]): ItemAgreement {
  const both = pairs.filter((p) => decided(p.a) && decided(p.b));
  const k = cohenKappa(
    both.map((p) => p.a.decision === 'satisfied'),
    both.map((p) => p.b.decision === 'satisfied'),
  );
  return {
    system,
    n: k.n,
    agree: k.agree,
    agreement: k.raw === null ? null : 100 * k.raw,
    kappa: k.kappa,
    table: k.table,
    decidedAOnly: pairs.filter((p) => decided(p.a) && !decided(p.b)).length,
    decidedBOnly: pairs.filter((p) => !decided(p.a) && decided(p.b)).length,
  };
}
