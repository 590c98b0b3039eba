// Scores with people's reviews as the report and the viewer rank them: a person decides what the checks left
// unjudged (a full score, basis judge + reviews); a disagreement keeps the machine's verdict unless the policy
// prefers reviews; a review of an item the record does not have is stale. Scores checked by hand (core items,
// equal weights: score = 100 x satisfied / items).
import { describe, expect, it } from 'vitest';
import { REVIEW_SCHEMA, type Review } from '@assay/core';
import { analyzeResults } from '../src/analyze-results.js';
import type { JobResults } from '../src/load-results.js';
import { buildReportDocument } from '../src/report/build-report-document.js';
import { fromJobResults } from '../src/results-tables.js';
import { scoresWithReviews } from '../src/scores-with-reviews.js';
import { rowsOf } from '../src/table-helpers.js';
import { makeTrial } from './fixtures/make-records.js';

const trials = [
  // t1: i0 satisfied, i1 and i2 unjudged; t2: i0 satisfied, i1 not satisfied, i2 unjudged.
  makeTrial({
    system: 'a',
    task: 't1',
    items: [{ decision: 'satisfied' }, { decision: 'unjudged' }, { decision: 'unjudged' }],
  }),
  makeTrial({
    system: 'a',
    task: 't2',
    items: [{ decision: 'satisfied' }, { decision: 'not-satisfied' }, { decision: 'unjudged' }],
  }),
];
const job: JobResults = { dir: '/r', jobId: 'job', job: null, trials, projects: [], problems: [], versions: [] };
let n = 0;
const review = (task: string, item: string, decision: Review['decision']): Review => ({
  schema: REVIEW_SCHEMA,
  id: `r${++n}`,
  at: `2026-01-01T00:00:${String(n).padStart(2, '0')}.000Z`,
  reviewer: 'ana',
  source: 'job',
  unit: `tasks/${task}`,
  system: 'a',
  trial: 1,
  item: { id: item, scope: null },
  itemDigest: 'd'.repeat(64),
  decision,
  note: '',
  evidence: [],
  blind: true,
  judgeDecision: 'unjudged',
});
const reviews = [
  review('t1', 'i1', 'satisfied'),
  review('t1', 'i2', 'not-satisfied'),
  review('t2', 'i1', 'satisfied'), // disagrees with the machine
  review('t2', 'i2', 'satisfied'),
  review('t2', 'i9', 'satisfied'), // no such item: stale
];

describe('scoresWithReviews', () => {
  it('decides unjudged items, keeps the machine where people disagree unless told, and names the basis', () => {
    const judge = scoresWithReviews([job], [{ reviews, lock: null }], 'judge');
    // t1: 2 of 3 satisfied; t2: i1 stays not satisfied, 2 of 3.
    expect(judge.jobs[0]!.trials.map((t) => t.score.value)).toEqual([(100 * 2) / 3, (100 * 2) / 3]);
    expect(rowsOf(judge.basis)).toEqual([
      { system: 'a', judge: 0, judge_reviews: 2, reviews_only: 0, disagreements: 1, stale: 1 },
    ]);
    const people = scoresWithReviews([job], [{ reviews, lock: null }], 'reviews');
    expect(people.jobs[0]!.trials.map((t) => t.score.value)).toEqual([(100 * 2) / 3, 100]);
    // The records are not touched.
    expect(trials.map((t) => t.score.value)).toEqual([null, null]);
  });

  it('gives the report a leaderboard with reviews beside the machine one, by policy', () => {
    const tables = fromJobResults([job]);
    const base = { resamples: 200, jobs: [job], jobReviews: [{ reviews, lock: null }] };
    const analysis = analyzeResults(tables, base);
    expect(analysis.tasks!.decidedLeaderboard).not.toBeNull(); // the machine has no full score
    const [row] = rowsOf<{ system: string; mean: number; unjudged: number }>(analysis.withReviews!.leaderboard);
    expect(row).toMatchObject({ system: 'a', unjudged: 0 });
    expect(row!.mean).toBeCloseTo((100 * 2) / 3, 10);
    expect(analysis.withReviews!.prefer).toBe('judge');
    const preferred = analyzeResults(tables, { ...base, prefer: 'reviews' });
    expect(rowsOf<{ mean: number }>(preferred.withReviews!.leaderboard)[0]!.mean).toBeCloseTo((100 * 5) / 6, 10);
    const doc = buildReportDocument(analysis, tables, { title: 't' });
    const ids = doc.blocks.flatMap((b) => (b.kind === 'table' ? [b.table.id] : []));
    expect(ids).toEqual(expect.arrayContaining(['leaderboard-reviews', 'review-basis']));
    expect(analyzeResults(tables, { resamples: 200, jobs: [job] }).withReviews).toBeNull();
  });
});
