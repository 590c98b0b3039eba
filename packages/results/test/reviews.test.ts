// Reviews through the filesystem store (the S3 store runs the same checks in s3-results-store.test.ts):
// every review its own key, none lost when reviewers write at once, bad ones refused or reported by key.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFsResultsStore, readReviews, reviewKey, writeReview } from '../src/index.js';
import { review, writeConcurrently } from './make-reviews.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('reviews in the results store', () => {
  it('writes each review under its own key and reads every one back, none lost when written at once', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'assay-reviews-'));
    dirs.push(root);
    const store = createFsResultsStore(root);
    const one = await writeReview(
      store,
      review('ana', 'i0', { at: '2026-12-05T10:11:12.345Z', note: 'table 2 totals' }),
    );
    expect(one).toMatchObject({ schema: 'assay.review/v1', reviewer: 'ana', note: 'table 2 totals' });
    expect(reviewKey('ana', one.at, one.id)).toBe(`reviews/ana/2026-12-05T10-11-12-345Z-${one.id}.json`);
    expect(await store.getJson(reviewKey('ana', one.at, one.id))).toEqual(one);
    await writeConcurrently(createFsResultsStore(path.join(root, 'many')));
  });

  it('refuses a review that would not parse, writing nothing; reports a bad stored one by key', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'assay-reviews-'));
    dirs.push(root);
    const store = createFsResultsStore(root);
    await expect(writeReview(store, review('../x', 'i0'))).rejects.toThrow(/reviewer/);
    await expect(writeReview(store, review('ana', 'i0', { decision: 'maybe' as never }))).rejects.toThrow(/decision/);
    expect(await readdir(root)).toEqual([]);
    await store.putJson('reviews/ana/bad.json', { schema: 'assay.review/v1', reviewer: 'ana' });
    await writeReview(store, review('ana', 'i1'));
    const problems: { key: string; message: string }[] = [];
    expect(await readReviews(store, problems)).toHaveLength(1);
    expect(problems).toEqual([{ key: 'reviews/ana/bad.json', message: expect.stringMatching(/^id: /) }]);
  });
});
