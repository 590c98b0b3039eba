// The reviews stored with the jobs a report reads, as expert labels (labels-from-reviews.ts): from each results
// folder, and for a re-judged one (`judges/<name>`) from the job it was re-judged from, where reviews are kept;
// each review once, whichever folder it was read through.
import { type Review } from '@assay/core';
import { openResultsStore, readJobLock, readReviews, type RecordProblem } from '@assay/results';
import type { ColumnTable } from 'arquero';
import { labelsFromReviews } from './labels-from-reviews.js';
import type { JobResults } from './load-results.js';

export interface LoadedReviewLabels {
  labels: ColumnTable | null;
  labelled: number;
  stale: number;
  /** The current reviews behind the labels (labels-from-reviews.ts), for inter-rater agreement. */
  current: Review[];
  problems: RecordProblem[];
}

export async function loadReviewLabels(jobs: readonly Pick<JobResults, 'dir' | 'job'>[]): Promise<LoadedReviewLabels> {
  const problems: RecordProblem[] = [];
  const seen = new Set<string>();
  let labels: ColumnTable | null = null;
  let labelled = 0;
  let stale = 0;
  const current: Review[] = [];
  const roots = [...new Set(jobs.map((j) => (typeof j.job?.rejudgedFrom === 'string' ? j.job.rejudgedFrom : j.dir)))];
  for (const root of roots) {
    const store = openResultsStore(root);
    const reviews = (await readReviews(store, problems)).filter((r: Review) => !seen.has(r.id));
    for (const r of reviews) seen.add(r.id);
    if (reviews.length === 0) continue;
    const got = labelsFromReviews(reviews, await readJobLock(store, { strict: false }));
    labels = labels ? labels.concat(got.labels) : got.labels;
    labelled += got.labelled;
    stale += got.stale;
    current.push(...got.current);
  }
  return { labels, labelled, stale, current, problems };
}
