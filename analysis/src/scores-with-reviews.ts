// Scores with people's reviews: each job's trial records scored again with its reviews applied by an explicit
// policy (core's applyReviews: a person decides what the machine left unjudged; where they disagree the judge's
// verdict stands unless the policy prefers reviews), and per system how many trials' scores rest on the judge
// alone, on judge + reviews or on reviews only, with the disagreements and stale reviews. The report and the
// viewer's overview both rank these, so a checks-only job a person reviewed gets a full, ranked score.
import {
  applyJobReviews,
  tallyReviews,
  type JobLock,
  type Review,
  type ReviewedTrial,
  type ReviewPolicy,
} from '@assay/core';
import type { ColumnTable } from 'arquero';
import type { JobResults } from './load-results.js';
import { systemNamer } from './results-tables.js';
import { tableOf } from './table-helpers.js';

/** A job's reviews (kept with the job, or the job it was re-judged from) and its lock (the items' digests now). */
export interface JobReviews {
  reviews: readonly Review[];
  lock: JobLock | null;
}

export const BASIS_COLUMNS = ['system', 'judge', 'judge_reviews', 'reviews_only', 'disagreements', 'stale'] as const;

export function scoresWithReviews(
  jobs: readonly JobResults[],
  reviews: readonly JobReviews[],
  prefer: ReviewPolicy,
): { jobs: JobResults[]; basis: ColumnTable } {
  const name = systemNamer(jobs);
  const bySystem = new Map<string, ReviewedTrial[]>();
  const scored = jobs.map((job, i) => {
    const { reviews: of, lock } = reviews[i] ?? { reviews: [], lock: null };
    const applied = applyJobReviews(job.trials, of, lock, prefer);
    return {
      ...job,
      trials: job.trials.map((r, k) => {
        const a = applied[k]!;
        const system = name(job.jobId, r.system.id);
        bySystem.set(system, [...(bySystem.get(system) ?? []), a]);
        return { ...r, score: a.score };
      }),
    };
  });
  const rows = [...bySystem].map(([system, trials]) => {
    const { basis, disagreements, stale } = tallyReviews(trials);
    const { judge, 'judge + reviews': judge_reviews, 'reviews only': reviews_only } = basis;
    return { system, judge, judge_reviews, reviews_only, disagreements, stale };
  });
  return { jobs: scored, basis: tableOf(rows, BASIS_COLUMNS) };
}
