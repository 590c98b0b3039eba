// A job's reviews over its trial records, as `status`, the report and the viewer's overview show them: each
// record with the reviews applied by one policy, a review counting only while its item's content is what the
// job's lock holds now; and, over any group of those trials, how many scores rest on each basis, with the
// disagreements and the stale reviews. Pure.
import { applyReviews, type ReviewedTrial, type ReviewPolicy, type ScoreBasis } from './apply-reviews.js';
import { lockedItemDigests } from './canonical-json.js';
import { taskUnitKey } from './job-lock.js';
import type { Review } from './review-record.js';
import type { TrialRecord } from './trial-record.js';

/** Each record (in order) with the job's reviews applied by `prefer`. */
export function applyJobReviews(
  records: readonly TrialRecord[],
  reviews: readonly Review[],
  /** The job's lock (a JobLock; only its items are read), or null for a job run before locks. */
  lock: Parameters<typeof lockedItemDigests>[0],
  prefer: ReviewPolicy,
): ReviewedTrial[] {
  return records.map((r) =>
    applyReviews(r, reviews, { prefer, itemDigests: lockedItemDigests(lock, taskUnitKey(r.task.id)) }),
  );
}

export interface ReviewTally {
  /** Trials by the basis of their score. */
  basis: Record<ScoreBasis, number>;
  disagreements: number;
  stale: number;
}

export function tallyReviews(trials: readonly ReviewedTrial[]): ReviewTally {
  const basis: Record<ScoreBasis, number> = { judge: 0, 'judge + reviews': 0, 'reviews only': 0 };
  for (const t of trials) basis[t.basis] += 1;
  return {
    basis,
    disagreements: trials.reduce((n, t) => n + t.disagreements, 0),
    stale: trials.reduce((n, t) => n + t.stale.length, 0),
  };
}
