// Scores with reviews: who decides each item, the policy where people and the machine disagree, several
// reviewers, stale reviews, and the basis every score names.
import { describe, expect, it } from 'vitest';
import {
  applyJobReviews,
  applyReviews,
  tallyReviews,
  itemDigestOf,
  lockedItemDigests,
  REVIEW_SCHEMA,
  trialRecordSchema,
  type Review,
  type TrialRecord,
  type Verdict,
} from '../src/index.js';

const DIGEST = { a: 'da', b: 'db', c: 'dc', d: 'dd' };

function verdict(itemId: string, weight: number, decision: Verdict['decision']): Verdict {
  const source = decision === 'unjudged' ? 'none' : itemId === 'a' ? 'check' : 'judge';
  return { itemId, importance: 'core', dimension: 'calculation-precision', weight, decision, source, reason: '' };
}

/** A checks-only trial: a and b decided by checks/judge, c and d unjudged (weights 5, 3, 2, 1). */
const record: TrialRecord = trialRecordSchema.parse({
  schema: 'assay.trial-record/v1',
  jobId: 'j',
  benchmark: { id: 'sample', version: '1' },
  system: { id: 'sys', harness: 'oracle', model: null },
  task: { id: 't1', domain: 'finance', formatRequired: false },
  trial: 1,
  status: 'completed',
  agent: {
    exitCode: 0,
    timedOut: false,
    reason: null,
    startedAt: 'x',
    endedAt: 'x',
    durationSeconds: 1,
    containerAttempts: 1,
  },
  usage: null,
  deliverables: [],
  formatCompliance: { required: false, compliant: true, missing: [], wrongType: [] },
  verdicts: [
    verdict('a', 5, 'satisfied'),
    verdict('b', 3, 'not-satisfied'),
    verdict('c', 2, 'unjudged'),
    verdict('d', 1, 'unjudged'),
  ],
  score: { value: null, decided: 62.5, coverage: 8 / 11, success: null },
  recordedAt: 'x',
});

let n = 0;
function review(
  reviewer: string,
  itemId: keyof typeof DIGEST,
  decision: Review['decision'],
  over: Partial<Review> = {},
): Review {
  n += 1;
  return {
    schema: REVIEW_SCHEMA,
    id: `r${String(n).padStart(3, '0')}`,
    reviewer,
    at: `2026-12-05T10:00:${String(n).padStart(2, '0')}Z`,
    source: 'job',
    unit: 'tasks/t1',
    system: 'sys',
    trial: 1,
    item: { id: itemId, scope: null },
    itemDigest: DIGEST[itemId],
    decision,
    note: '',
    evidence: [],
    blind: true,
    judgeDecision: record.verdicts.find((v) => v.itemId === itemId)!.decision,
    ...over,
  };
}

const apply = (reviews: Review[], prefer: 'judge' | 'reviews' = 'judge') =>
  applyReviews(record, reviews, { prefer, itemDigests: DIGEST });

describe('applyReviews', () => {
  it('without reviews: the machine verdicts as recorded, basis judge', () => {
    const r = apply([]);
    expect(r.score).toEqual(record.score);
    expect(r.basis).toBe('judge');
    expect(r.items.map((i) => i.by)).toEqual(['machine', 'machine', 'none', 'none']);
  });

  it('people decide the unjudged items: a full score, basis judge + reviews (by hand: (5 + 2) / 11)', () => {
    const r = apply([review('ana', 'c', 'satisfied'), review('ana', 'd', 'not-satisfied')]);
    expect(r.items.map((i) => [i.itemId, i.decision, i.by])).toEqual([
      ['a', 'satisfied', 'machine'],
      ['b', 'not-satisfied', 'machine'],
      ['c', 'satisfied', 'reviews'],
      ['d', 'not-satisfied', 'reviews'],
    ]);
    expect(r.score.value).toBeCloseTo((100 * 7) / 11, 12);
    expect(r.score.coverage).toBe(1);
    expect(r.score.success).toBe(false);
    expect(r.basis).toBe('judge + reviews');
    // The record itself is untouched.
    expect(record.verdicts.map((v) => v.decision)).toEqual(['satisfied', 'not-satisfied', 'unjudged', 'unjudged']);
  });

  it('a disagreement: the machine stands by default and it is counted; prefer reviews takes the person', () => {
    const reviews = [review('ana', 'b', 'satisfied'), review('ana', 'a', 'satisfied')];
    const standing = apply(reviews);
    expect(standing.disagreements).toBe(1);
    expect(standing.items[1]).toMatchObject({
      machine: 'not-satisfied',
      human: 'satisfied',
      decision: 'not-satisfied',
      by: 'machine',
      disagreement: true,
    });
    expect(standing.basis).toBe('judge');
    const preferred = apply(reviews, 'reviews');
    expect(preferred.items[1]).toMatchObject({ decision: 'satisfied', by: 'reviews' });
    expect(preferred.score.decided).toBe(100);
    expect(preferred.basis).toBe('judge + reviews');
    // Every decided item decided by people: reviews only.
    const all = apply(
      [...reviews, review('ben', 'a', 'satisfied'), review('ana', 'c', 'satisfied'), review('ana', 'd', 'satisfied')],
      'reviews',
    );
    expect(all.items.map((i) => i.by)).toEqual(['machine', 'reviews', 'reviews', 'reviews']);
    expect(
      apply(
        [
          review('ana', 'a', 'not-satisfied'),
          review('ana', 'b', 'satisfied'),
          review('ana', 'c', 'satisfied'),
          review('ana', 'd', 'satisfied'),
        ],
        'reviews',
      ).basis,
    ).toBe('reviews only');
  });

  it('several reviewers: each one’s latest counts once, the majority decides, a tie or can’t tell decides nothing', () => {
    const changedMind = [review('ana', 'c', 'not-satisfied'), review('ana', 'c', 'satisfied')];
    expect(apply(changedMind).items[2]).toMatchObject({
      human: 'satisfied',
      reviews: [{ reviewer: 'ana', decision: 'satisfied' }],
    });
    const tie = apply([review('ana', 'c', 'satisfied'), review('ben', 'c', 'not-satisfied')]);
    expect(tie.items[2]).toMatchObject({ human: null, decision: 'unjudged', by: 'none' });
    const majority = apply([
      review('ana', 'c', 'satisfied'),
      review('ben', 'c', 'not-satisfied'),
      review('cy', 'c', 'satisfied'),
    ]);
    expect(majority.items[2]).toMatchObject({ human: 'satisfied', by: 'reviews' });
    expect(apply([review('ana', 'd', 'cant-tell')]).items[3]).toMatchObject({ human: null, by: 'none' });
  });

  it('a review of an item whose content changed, or that is gone, is stale: listed, never applied', () => {
    const changed = review('ana', 'c', 'satisfied', { itemDigest: 'old' });
    const gone = review('ana', 'c', 'satisfied', { item: { id: 'zz', scope: null } });
    const elsewhere = review('ana', 'c', 'satisfied', { trial: 2 });
    const r = apply([changed, gone, elsewhere]);
    expect(r.stale.map((s) => s.id)).toEqual([changed.id, gone.id]);
    expect(r.items[2]).toMatchObject({ decision: 'unjudged', by: 'none' });
    expect(r.basis).toBe('judge');
    // Without a lock the content cannot be checked: only a review of an item the record lacks is stale.
    const unchecked = applyReviews(record, [changed, gone], { prefer: 'judge', itemDigests: null });
    expect(unchecked.stale.map((s) => s.id)).toEqual([gone.id]);
    expect(unchecked.items[2]).toMatchObject({ decision: 'satisfied', by: 'reviews' });
  });

  it('reads the items’ digests from a job lock as reviews record them', () => {
    const fields = { importance: 'core', check: 'sha256:abc' };
    const lock = { units: { 'tasks/t1': { items: { a: fields } } } };
    expect(lockedItemDigests(lock, 'tasks/t1')).toEqual({ a: itemDigestOf(fields) });
    expect(itemDigestOf({ check: 'sha256:abc', importance: 'core' })).toBe(itemDigestOf(fields));
    expect(lockedItemDigests(lock, 'tasks/t2')).toBeNull();
    expect(lockedItemDigests(null, 'tasks/t1')).toBeNull();
  });
});

describe('applyJobReviews and tallyReviews', () => {
  it('applies the job lock’s digests trial by trial, and counts bases, disagreements and stale reviews', () => {
    const second = trialRecordSchema.parse({ ...record, trial: 2 });
    const lockOf = (fields: Record<string, Record<string, string>>) => ({ units: { 'tasks/t1': { items: fields } } });
    const items = { a: { v: 'a' }, b: { v: 'b' }, c: { v: 'c' }, d: { v: 'd' } };
    const lock = lockOf(items);
    const now = (id: keyof typeof items) => ({ itemDigest: itemDigestOf(items[id]) });
    const reviews = [
      review('ann', 'c', 'satisfied', now('c')),
      review('ann', 'b', 'satisfied', now('b')),
      // Its item's content changed since: stale under the lock, though its digest is the test's DIGEST.
      review('ann', 'd', 'satisfied'),
      review('bob', 'c', 'not-satisfied', { ...now('c'), trial: 2 }),
      review('bob', 'd', 'not-satisfied', { ...now('d'), trial: 2 }),
    ];
    const applied = applyJobReviews([record, second], reviews, lock, 'judge');
    expect(applied.map((a) => a.basis)).toEqual(['judge + reviews', 'judge + reviews']);
    expect(applied.map((a) => a.stale.map((r) => r.item.id))).toEqual([['d'], []]);
    expect(tallyReviews(applied)).toEqual({
      basis: { judge: 0, 'judge + reviews': 2, 'reviews only': 0 },
      disagreements: 1,
      stale: 1,
    });
    // Without a lock only a review of an item the record lacks is stale; no trials, nothing counted.
    expect(applyJobReviews([record], reviews, null, 'judge')[0]!.stale).toEqual([]);
    expect(tallyReviews([])).toEqual({
      basis: { judge: 0, 'judge + reviews': 0, 'reviews only': 0 },
      disagreements: 0,
      stale: 0,
    });
  });
});
