// Reviews for tests of the store, and the check both backends run: no review lost when written at once.
import { expect } from 'vitest';
import { readReviews, writeReview, type NewReview, type ResultsStore } from '../src/index.js';

export const review = (reviewer: string, itemId: string, over: Partial<NewReview> = {}): NewReview => ({
  reviewer,
  source: 'job',
  unit: 'tasks/t1',
  system: 's',
  trial: 1,
  item: { id: itemId, scope: null },
  itemDigest: 'd'.repeat(64),
  decision: 'satisfied',
  note: '',
  evidence: [],
  blind: true,
  judgeDecision: 'unjudged',
  ...over,
});

/** Two reviewers, 40 reviews each, all at once: every one is read back. */
export async function writeConcurrently(store: ResultsStore): Promise<void> {
  const writes = ['ana', 'ben'].flatMap((who) =>
    Array.from({ length: 40 }, (_, i) => writeReview(store, review(who, `i${i}`))),
  );
  const written = await Promise.all(writes);
  const read = await readReviews(store);
  expect(read).toHaveLength(80);
  expect(new Set(read.map((r) => r.id))).toEqual(new Set(written.map((r) => r.id)));
}
