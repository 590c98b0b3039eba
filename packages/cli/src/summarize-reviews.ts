// `status` with people's reviews: per system, the scores with reviews applied by the chosen policy (core's
// applyJobReviews), how many trials each basis gave, the disagreements with the machine and the stale reviews.
// Shown beside the machine's summary, never instead of it.
import {
  applyJobReviews,
  tallyReviews,
  type JobLock,
  type Review,
  type ReviewPolicy,
  type ReviewTally,
  type TrialRecord,
} from '@assay/core';
import { renderTable } from './render-table.js';
import { formatScore, mean } from './summarize-results.js';

export interface ReviewSummary extends ReviewTally {
  system: string;
  /** Trials with at least one current review. */
  reviewed: number;
  /** With reviews applied: mean full score (trials whose every item is now decided), decided-items score, success. */
  meanScore: number | null;
  meanDecided: number | null;
  successRate: number | null;
}

export function summarizeWithReviews(
  records: readonly TrialRecord[],
  reviews: readonly Review[],
  lock: JobLock | null,
  prefer: ReviewPolicy,
): ReviewSummary[] {
  const bySystem = new Map<string, TrialRecord[]>();
  for (const r of records) bySystem.set(r.system.id, [...(bySystem.get(r.system.id) ?? []), r]);
  return [...bySystem.entries()].map(([system, rs]) => {
    const applied = applyJobReviews(rs, reviews, lock, prefer);
    const full = applied.flatMap((a) => (a.score.value === null ? [] : [a.score]));
    return {
      system,
      reviewed: applied.filter((a) => a.items.some((i) => i.reviews.length > 0)).length,
      meanScore: mean(full.map((s) => s.value as number)),
      meanDecided: mean(applied.flatMap((a) => (a.score.decided === null ? [] : [a.score.decided]))),
      successRate: full.length > 0 ? (100 * full.filter((s) => s.success === true).length) / full.length : null,
      ...tallyReviews(applied),
    };
  });
}

export function renderReviewTable(rows: readonly ReviewSummary[]): string {
  const fmt = formatScore;
  const header = [
    'system',
    'score',
    'score (decided items)',
    'success %',
    'reviewed trials',
    'basis judge / judge + reviews / reviews only',
    'disagreements',
    'stale reviews',
  ];
  const body = rows.map((r) => [
    r.system,
    fmt(r.meanScore),
    fmt(r.meanDecided),
    fmt(r.successRate),
    String(r.reviewed),
    `${r.basis.judge} / ${r.basis['judge + reviews']} / ${r.basis['reviews only']}`,
    String(r.disagreements),
    String(r.stale),
  ]);
  return renderTable(header, body);
}
