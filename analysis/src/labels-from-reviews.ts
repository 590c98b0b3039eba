// People's reviews (assay.review/v1, in the results store) as the expert-label table judge agreement reads, so
// `assay report` measures agreement on labels made in the tool, no hand-made CSV. Per item, each reviewer's
// latest review counts once and the majority of those who decided is the label (core's humanDecisionOf); "can't
// tell" and ties give none. A review of an item whose content changed since (its digest is not the one the job
// lock has now) or that the lock no longer has is stale: counted, never a label. Without a lock (a job run
// before locks) the content cannot be checked and every review counts.
import { humanDecisionOf, itemDigestOf, latestReviews, type JobLock, type Review } from '@assay/core';
import type { ColumnTable } from 'arquero';
import { tableOf } from './table-helpers.js';

export interface ReviewLabels {
  /** Columns as loadHumanLabels gives them: system, unit, trial, item, scope, human (1/0). */
  labels: ColumnTable;
  /** Items with reviews, items labelled, and reviews left out as stale. */
  items: number;
  labelled: number;
  stale: number;
  /** Each reviewer's latest review of each item, stale ones left out: what inter-rater agreement reads. */
  current: Review[];
}

function isCurrent(r: Review, lock: JobLock | null): boolean {
  if (!lock) return true;
  const unit = lock.units[r.unit];
  const fields = unit?.items[r.item.scope === null ? r.item.id : `${r.item.scope}/${r.item.id}`];
  return fields !== undefined && itemDigestOf(fields) === r.itemDigest;
}

export function labelsFromReviews(reviews: readonly Review[], lock: JobLock | null): ReviewLabels {
  const latest = latestReviews(reviews);
  const current = latest.filter((r) => isCurrent(r, lock));
  const byItem = new Map<string, Review[]>();
  for (const r of current) {
    const key = [r.unit, r.system, r.trial, r.item.scope ?? '', r.item.id].join('\u0000');
    byItem.set(key, [...(byItem.get(key) ?? []), r]);
  }
  const rows = [...byItem.values()].flatMap((rs) => {
    const human = humanDecisionOf(rs);
    const r = rs[0]!;
    if (human === null) return [];
    const unit = r.unit.slice(r.unit.indexOf('/') + 1);
    return [
      {
        system: r.system,
        unit,
        trial: r.trial,
        item: r.item.id,
        scope: r.item.scope,
        human: human === 'satisfied' ? 1 : 0,
      },
    ];
  });
  return {
    labels: tableOf(rows, ['system', 'unit', 'trial', 'item', 'scope', 'human']),
    items: byItem.size,
    labelled: rows.length,
    stale: latest.length - current.length,
    current,
  };
}
