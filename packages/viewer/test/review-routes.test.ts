// The review API over a results folder with a job's record and a re-judged setup's: the server fills the item's
// digest (from the job's lock) and the machine's decision, whatever the client sends; a judge setup's reviews
// go to the job's own reviews/ naming their source; the same-origin guard refuses other hosts and origins.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptUnits, itemDigestOf, type Review } from '@assay/core';
import { createFsResultsStore, jobLockKey, judgeRootKey, readReviews, trialRecordKey } from '@assay/results';
import { makeTrialRecord } from '../../results/test/make-records.js';
import { createViewerApp } from '../src/create-viewer-app.js';
import { resolveSources } from '../src/resolve-sources.js';

const PORT = 4321;
const own = { host: `127.0.0.1:${PORT}`, origin: `http://127.0.0.1:${PORT}` };
const fields = { text: 'The total is 5.', importance: 'core' };
let dir: string;
let app: ReturnType<typeof createViewerApp>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'assay-review-api-'));
  const store = createFsResultsStore(dir);
  const record = makeTrialRecord('s', 't1', 1);
  await store.putJson(trialRecordKey('s', 't1', 1), record);
  const rejudged = { ...record, verdicts: record.verdicts.map((v) => ({ ...v, decision: 'not-satisfied' })) };
  await store.scoped(judgeRootKey('alt')).putJson(trialRecordKey('s', 't1', 1), rejudged);
  const version = { digest: 'x', parts: {}, items: { i1: fields } };
  await store.putJson(
    jobLockKey(),
    acceptUnits(null, { jobId: 'j', specDigest: 'd', units: { 'tasks/t1': version } }, 'now'),
  );
  app = createViewerApp(await resolveSources([dir]), dir, { port: () => PORT });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const post = (source: string, body: unknown, headers: Record<string, string> = own) =>
  app.request(`/api/reviews/${source}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const body = { reviewer: 'ana', unit: 'tasks/t1', system: 's', trial: 1, itemId: 'i1', decision: 'not-satisfied' };

describe('review API', () => {
  it('stores a review with the digest and machine decision from the server, not the client', async () => {
    const res = await post('0', { ...body, itemDigest: 'forged', judgeDecision: 'unjudged', blind: true });
    expect(res.status).toBe(200);
    const got = (await res.json()) as { review: Review; judge: { decision: string; reason: string } };
    expect(got.judge).toEqual({ decision: 'satisfied', reason: 'found', anchors: [] });
    expect(got.review).toMatchObject({
      source: 'job',
      itemDigest: itemDigestOf(fields),
      judgeDecision: 'satisfied',
      blind: true,
      item: { id: 'i1', scope: null },
    });
  });

  it("keeps a judge setup's reviews with the job's, naming the setup", async () => {
    const res = await post('0.alt', { ...body, reviewer: 'ben', decision: 'satisfied' });
    expect(res.status).toBe(200);
    const all = await readReviews(createFsResultsStore(dir));
    const ben = all.find((r) => r.reviewer === 'ben');
    expect(ben).toMatchObject({
      source: 'judges/alt',
      judgeDecision: 'not-satisfied',
      itemDigest: itemDigestOf(fields),
    });
    const listed = (await (await app.request('/api/reviews/0.alt')).json()) as { reviews: Review[] };
    expect(listed.reviews.map((r) => r.reviewer)).toEqual(['ben']);
  });

  it('hides the machine decision in a blind queue until the reviewer decided', async () => {
    const queue = async (reviewer: string) =>
      (
        (await (await app.request(`/api/review-queue/0?reviewer=${reviewer}&mode=sample&size=5&blind=1`)).json()) as {
          entries: { judge: unknown; reviewed: { decision: string } | null }[];
        }
      ).entries;
    expect(await queue('cleo')).toEqual([expect.objectContaining({ judge: null, reviewed: null })]);
    expect(await queue('ana')).toEqual([
      expect.objectContaining({
        judge: { decision: 'satisfied', reason: 'found', anchors: [] },
        reviewed: expect.objectContaining({ decision: 'not-satisfied' }),
      }),
    ]);
  });

  it('refuses other hosts and origins (403) and names bad fields (400)', async () => {
    expect((await post('0', body, { host: `evil.example:${PORT}`, origin: 'http://evil.example' })).status).toBe(403);
    expect((await post('0', body, { host: own.host, origin: 'http://evil.example' })).status).toBe(403);
    expect((await post('0', body, { host: own.host })).status).toBe(403);
    const bad = async (over: Record<string, unknown>) => {
      const res = await post('0', { ...body, ...over });
      return [res.status, ((await res.json()) as { error: string }).error];
    };
    expect(await bad({ decision: 'maybe' })).toEqual([400, expect.stringMatching(/^decision: /)]);
    expect(await bad({ itemId: 'i9' })).toEqual([400, 'itemId: no item i9 in that trial record']);
    expect(await bad({ trial: 2 })).toEqual([400, expect.stringMatching(/^trial: no trial record/)]);
    expect(await bad({ note: 3 })).toEqual([400, expect.stringMatching(/^note: /)]);
    expect((await post('9', body)).status).toBe(404);
  });
});
