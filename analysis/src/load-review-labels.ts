// The reviews stored with the jobs a report reads: from each results folder, and for a re-judged one
// (`judges/<name>`) from the job it was re-judged from, where reviews are kept. As expert labels
// (labels-from-reviews.ts), each review once whichever folder it was read through; and per job, with the job's
// lock, for its scores with reviews (scores-with-reviews.ts).
import { type Review } from '@assay/core';
import { openResultsStore, readJobLock, readReviews, type RecordProblem } from '@assay/results';
import type { ColumnTable } from 'arquero';
import { labelsFromReviews } from './labels-from-reviews.js';
import type { JobResults } from './load-results.js';
import type { JobReviews } from './scores-with-reviews.js';

export interface LoadedReviewLabels {
  labels: ColumnTable | null;
  labelled: number;
  stale: number;
  /** The current reviews behind the labels (labels-from-reviews.ts), for inter-rater agreement. */
  current: Review[];
  /** Per job, in the order given: the reviews of its items and its lock. */
  byJob: JobReviews[];
  problems: RecordProblem[];
}

const rootOf = (j: Pick<JobResults, 'dir' | 'job'>): string =>
  typeof j.job?.rejudgedFrom === 'string' ? j.job.rejudgedFrom : j.dir;

export async function loadReviewLabels(jobs: readonly Pick<JobResults, 'dir' | 'job'>[]): Promise<LoadedReviewLabels> {
  const problems: RecordProblem[] = [];
  const byRoot = new Map<string, Review[]>();
  for (const root of new Set(jobs.map(rootOf))) byRoot.set(root, await readReviews(openResultsStore(root), problems));
  let labels: ColumnTable | null = null;
  let labelled = 0;
  let stale = 0;
  const current: Review[] = [];
  const seen = new Set<string>();
  for (const [root, all] of byRoot) {
    const reviews = all.filter((r) => !seen.has(r.id));
    for (const r of reviews) seen.add(r.id);
    if (reviews.length === 0) continue;
    const got = labelsFromReviews(reviews, await readJobLock(openResultsStore(root), { strict: false }));
    labels = labels ? labels.concat(got.labels) : got.labels;
    labelled += got.labelled;
    stale += got.stale;
    current.push(...got.current);
  }
  const byJob = await Promise.all(
    jobs.map(async (j) => ({
      reviews: byRoot.get(rootOf(j)) ?? [],
      lock: await readJobLock(openResultsStore(j.dir), { strict: false }),
    })),
  );
  return { labels, labelled, stale, current, byJob, problems };
}
