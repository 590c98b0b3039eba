// People's reviews through the results store (filesystem or S3): each written once under its own key, never
// rewritten or deleted by assay; read back all at once, the invalid ones reported by key and left out.
import { randomUUID } from 'node:crypto';
import { REVIEW_SCHEMA, reviewSchema, type Review } from '@assay/core';
import type { RecordProblem } from './read-records.js';
import { REVIEWS_PREFIX, reviewKey } from './results-layout.js';
import type { ResultsStore } from './results-store.js';

export type NewReview = Omit<Review, 'schema' | 'id' | 'at'> & { at?: string };

// The latest review of a reviewer counts, ordered by time: two written within one millisecond by this process
// (a reviewer who changed their mind at once) still get distinct, increasing times.
let lastAt = 0;
function reviewTime(): string {
  lastAt = Math.max(Date.now(), lastAt + 1);
  return new Date(lastAt).toISOString();
}

/** Validate and store one review; returns it as stored (with its id and time). */
export async function writeReview(store: ResultsStore, review: NewReview): Promise<Review> {
  const stored = reviewSchema.parse({
    ...review,
    schema: REVIEW_SCHEMA,
    id: randomUUID(),
    at: review.at ?? reviewTime(),
  });
  await store.putJson(reviewKey(stored.reviewer, stored.at, stored.id), stored);
  return stored;
}

/** Every review in the store, in key order; one that does not parse goes to `problems` (not thrown). */
export async function readReviews(store: ResultsStore, problems: RecordProblem[] = []): Promise<Review[]> {
  const keys = (await store.list(REVIEWS_PREFIX)).filter((k) => k.endsWith('.json'));
  const out: Review[] = [];
  for (const key of keys) {
    try {
      const parsed = reviewSchema.safeParse(await store.getJson(key));
      if (parsed.success) out.push(parsed.data);
      else {
        const issue = parsed.error.issues[0];
        problems.push({ key, message: `${issue?.path.join('.') || 'review'}: ${issue?.message}` });
      }
    } catch (err) {
      problems.push({ key, message: (err as Error).message });
    }
  }
  return out;
}
