// Inter-rater agreement: each pair of reviewers on the items both decided (satisfied or not; "can't tell" is
// counted apart), with Cohen's kappa and its bootstrap interval, as judge agreement has them. Reviews are each
// reviewer's latest of an item, and only current ones (labels-from-reviews.ts leaves stale ones out first).
import type { Review } from '@assay/core';
import type { ColumnTable } from 'arquero';
import { cohenKappa } from './cohen-kappa.js';
import { kappaInterval, type KappaIntervalOptions } from './kappa-interval.js';
import { tableOf } from './table-helpers.js';

const itemKey = (r: Review) => [r.unit, r.system, r.trial, r.item.scope ?? '', r.item.id].join('\u0000');

/** A row per pair of reviewers with an item in common; null when fewer than two reviewers share one. */
export function reviewerAgreement(current: readonly Review[], options: KappaIntervalOptions = {}): ColumnTable | null {
  const byReviewer = new Map<string, Map<string, Review>>();
  for (const r of current) {
    const mine = byReviewer.get(r.reviewer) ?? new Map<string, Review>();
    mine.set(itemKey(r), r);
    byReviewer.set(r.reviewer, mine);
  }
  const names = [...byReviewer.keys()].sort();
  const rows: Record<string, unknown>[] = [];
  for (const [i, a] of names.entries()) {
    for (const b of names.slice(i + 1)) {
      const [ra, rb] = [byReviewer.get(a)!, byReviewer.get(b)!];
      const both = [...ra.keys()].filter((k) => rb.has(k)).map((k) => [ra.get(k)!, rb.get(k)!] as const);
      if (both.length === 0) continue;
      const decided = both.filter(([x, y]) => x.decision !== 'cant-tell' && y.decision !== 'cant-tell');
      const da = decided.map(([x]) => x.decision === 'satisfied');
      const db = decided.map(([, y]) => y.decision === 'satisfied');
      const k = cohenKappa(da, db);
      const ci = kappaInterval(da, db, options);
      rows.push({
        a,
        b,
        shared: both.length,
        n: k.n,
        agree: k.agree,
        agreement: k.raw === null ? null : 100 * k.raw,
        kappa: k.kappa,
        kappa_low: ci?.low ?? null,
        kappa_high: ci?.high ?? null,
        cant_tell: both.length - decided.length,
      });
    }
  }
  return rows.length === 0
    ? null
    : tableOf(rows, ['a', 'b', 'shared', 'n', 'agree', 'agreement', 'kappa', 'kappa_low', 'kappa_high', 'cant_tell']);
}
