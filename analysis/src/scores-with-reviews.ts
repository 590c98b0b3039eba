// Scores with people's reviews: each job's trial records scored again with its reviews applied by an explicit
// policy (core's applyReviews: a person decides what the machine left unjudged; where they disagree the judge's
// verdict stands unless the policy prefers reviews), and per system how many trials' scores rest on the judge
// alone, on judge + reviews or on reviews only, with the disagreements and stale reviews. The report and the
// viewer's overview both rank these, so a checks-only job a person reviewed gets a full, ranked score.
import {
  applyReviews,
  lockedItemDigests,
  taskUnitKey,
  type JobLock,
  type Review,
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
  const basis = new Map<string, Record<(typeof BASIS_COLUMNS)[number], number | string>>();
  const count = (system: string, column: (typeof BASIS_COLUMNS)[number], n: number) => {
    const row = basis.get(system) ?? {
      system,
      judge: 0,
      judge_reviews: 0,
      reviews_only: 0,
      disagreements: 0,
      stale: 0,
    };
    row[column] = (row[column] as number) + n;
    basis.set(system, row);
  };
  const scored = jobs.map((job, i) => {
    const { reviews: of, lock } = reviews[i] ?? { reviews: [], lock: null };
    return {
      ...job,
      trials: job.trials.map((r) => {
        const a = applyReviews(r, of, { prefer, itemDigests: lockedItemDigests(lock, taskUnitKey(r.task.id)) });
        const system = name(job.jobId, r.system.id);
        count(
          system,
          a.basis === 'judge' ? 'judge' : a.basis === 'judge + reviews' ? 'judge_reviews' : 'reviews_only',
          1,
        );
        count(system, 'disagreements', a.disagreements);
        count(system, 'stale', a.stale.length);
        return { ...r, score: a.score };
      }),
    };
  });
  return { jobs: scored, basis: tableOf([...basis.values()], BASIS_COLUMNS) };
}
