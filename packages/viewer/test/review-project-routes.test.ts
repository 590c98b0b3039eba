// Labelling project criteria through the review API, over a results folder with one project record (a criterion
// judged at checkpoint s1, one of the final package) and a job lock keying them `s1/<id>` and `final/<id>`: the
// candidates carry the scope and the locked digest; a POST stores the scope with the server's digest and
// decision; a scope on a task item, or none on a project criterion, is refused naming the field; a blind queue
// hides a criterion's judge decision (and reason) until the reviewer decided.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptUnits, itemDigestOf, projectRecordSchema, type Review } from '@assay/core';
import { createFsResultsStore, jobLockKey, projectRecordKey, trialRecordKey } from '@assay/results';
import { makeProjectRecord, makeTrialRecord } from '../../results/test/make-records.js';
import { createViewerApp } from '../src/create-viewer-app.js';
import { resolveSources } from '../src/resolve-sources.js';
import { reviewCandidates } from '../src/review-candidates.js';

const PORT = 4322;
const own = { host: `127.0.0.1:${PORT}`, origin: `http://127.0.0.1:${PORT}` };
const checkpointFields = { text: 'The model balances.', weight: '3', dimension: 'correctness' };
const finalFields = { text: 'The memo agrees with the model.', weight: '2', target: 'cross-file-consistency' };
const verdict = {
  weight: 3,
  fatal: false,
  dimension: 'correctness',
  target: null,
  source: 'judge',
  reusedFrom: null,
  reuseKey: 'k',
  effective: 1,
  blockedBy: [],
};
let dir: string;
let app: ReturnType<typeof createViewerApp>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'assay-review-projects-'));
  const store = createFsResultsStore(dir);
  await store.putJson(trialRecordKey('s', 't1', 1), makeTrialRecord('s', 't1', 1));
  const base = makeProjectRecord('s', 'p1', 1);
  const record = projectRecordSchema.parse({
    ...base,
    checkpoints: base.checkpoints.map((cp) => ({
      ...cp,
      verdicts: [
        { ...verdict, criterionId: 'balances', decision: 'satisfied', reason: 'the sheet balances at Summary!B4' },
      ],
    })),
    final: {
      ...base.final,
      verdicts: [
        {
          ...verdict,
          criterionId: 'consistent',
          weight: 2,
          dimension: 'consistency',
          target: 'cross-file-consistency',
          decision: 'not-satisfied',
          reason: 'the memo quotes an old figure',
        },
      ],
    },
  });
  await store.putJson(projectRecordKey('s', 'p1', 1), record);
  const units = {
    'tasks/t1': { digest: 'x', parts: {}, items: { i1: { text: 'The total is 5.', importance: 'core' } } },
    'projects/p1': {
      digest: 'y',
      parts: {},
      items: { 's1/balances': checkpointFields, 'final/consistent': finalFields },
    },
  };
  await store.putJson(jobLockKey(), acceptUnits(null, { jobId: 'j', specDigest: 'd', units }, 'now'));
  app = createViewerApp(await resolveSources([dir]), dir, { port: () => PORT });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const post = (body: unknown) =>
  app.request('/api/reviews/0', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...own },
    body: JSON.stringify(body),
  });
const criterion = {
  reviewer: 'ana',
  unit: 'projects/p1',
  system: 's',
  trial: 1,
  itemId: 'balances',
  scope: 's1',
  decision: 'not-satisfied',
};
type Entry = {
  unit: string;
  itemId: string;
  scope: string | null;
  judge: { decision: string; reason: string } | null;
  reviewed: { decision: string } | null;
};
const queue = async (q: string) =>
  ((await (await app.request(`/api/review-queue/0?${q}`)).json()) as { entries: Entry[] }).entries;

describe('review API: project criteria', () => {
  it("lists every criterion verdict with its scope, checkpoint, target and the lock's digest", async () => {
    const [source] = await resolveSources([dir]);
    const got = await reviewCandidates(source!);
    expect(got.map((c) => [c.unit, c.itemId, c.scope])).toEqual([
      ['tasks/t1', 'i1', null],
      ['projects/p1', 'balances', 's1'],
      ['projects/p1', 'consistent', 'final'],
    ]);
    expect(got[1]).toMatchObject({
      checkpoint: 0,
      importance: 'checkpoint',
      target: null,
      dimension: 'correctness',
      itemDigest: itemDigestOf(checkpointFields),
      judgeDecision: 'satisfied',
      judgeReason: 'the sheet balances at Summary!B4',
      judgeAnchors: [{ file: null, anchor: 'Summary!B4', kind: 'cell', page: null }],
    });
    expect(got[2]).toMatchObject({
      checkpoint: null,
      importance: 'cross-file-consistency',
      target: 'cross-file-consistency',
      dimension: 'consistency',
      itemDigest: itemDigestOf(finalFields),
      judgeDecision: 'not-satisfied',
    });
  });

  it("hides a criterion's judge decision in a blind queue until the reviewer decided", async () => {
    const before = await queue('reviewer=ben&mode=sample&size=5&seed=1&blind=1');
    const criteria = before.filter((e) => e.unit === 'projects/p1');
    expect(criteria.map((e) => [e.itemId, e.scope, e.judge]).sort()).toEqual([
      ['balances', 's1', null],
      ['consistent', 'final', null],
    ]);
    // Nothing of the decision or the reason anywhere in the entry.
    expect(JSON.stringify(criteria)).not.toMatch(/sheet balances|old figure|judgeDecision|judgeReason/);
    expect((await post({ ...criterion, reviewer: 'ben' })).status).toBe(200);
    const after = await queue('reviewer=ben&mode=sample&size=5&seed=1&blind=1');
    expect(after.find((e) => e.scope === 's1')).toMatchObject({
      judge: {
        decision: 'satisfied',
        reason: 'the sheet balances at Summary!B4',
        anchors: [{ file: null, anchor: 'Summary!B4', kind: 'cell', page: null }],
      },
      reviewed: { decision: 'not-satisfied' },
    });
    // The same criterion id at another scope, or the task item, is not decided by that review.
    expect(after.find((e) => e.scope === 'final')).toMatchObject({ judge: null, reviewed: null });
    expect(after.find((e) => e.unit === 'tasks/t1')).toMatchObject({ judge: null, reviewed: null });
  });

  it("stores a criterion's review with its scope and the server's digest and decision", async () => {
    const res = await post({ ...criterion, itemDigest: 'forged', judgeDecision: 'unjudged', blind: true });
    expect(res.status).toBe(200);
    const got = (await res.json()) as { review: Review; judge: { decision: string } };
    expect(got.judge).toEqual({
      decision: 'satisfied',
      reason: 'the sheet balances at Summary!B4',
      anchors: [{ file: null, anchor: 'Summary!B4', kind: 'cell', page: null }],
    });
    expect(got.review).toMatchObject({
      unit: 'projects/p1',
      item: { id: 'balances', scope: 's1' },
      itemDigest: itemDigestOf(checkpointFields),
      judgeDecision: 'satisfied',
      blind: true,
    });
    const final = await post({ ...criterion, itemId: 'consistent', scope: 'final', decision: 'satisfied' });
    expect(((await final.json()) as { review: Review }).review).toMatchObject({
      item: { id: 'consistent', scope: 'final' },
      itemDigest: itemDigestOf(finalFields),
      judgeDecision: 'not-satisfied',
    });
  });

  it('refuses a scope on a task item, a criterion without one, or one the record does not have, naming the field', async () => {
    const bad = async (body: Record<string, unknown>) => {
      const res = await post(body);
      return [res.status, ((await res.json()) as { error: string }).error];
    };
    const task = { reviewer: 'ana', unit: 'tasks/t1', system: 's', trial: 1, itemId: 'i1', decision: 'satisfied' };
    expect(await bad({ ...task, scope: 's1' })).toEqual([400, expect.stringMatching(/^scope: /)]);
    expect(await bad({ ...criterion, scope: undefined })).toEqual([400, expect.stringMatching(/^scope: /)]);
    expect(await bad({ ...criterion, scope: null })).toEqual([400, expect.stringMatching(/^scope: /)]);
    expect(await bad({ ...criterion, scope: 's9' })).toEqual([
      400,
      'scope: no criterion verdicts at s9 in that project record',
    ]);
    // A checkpoint criterion named at the final package: not a criterion there.
    expect(await bad({ ...criterion, scope: 'final' })).toEqual([
      400,
      'itemId: no criterion balances in that project record',
    ]);
    expect(await bad({ ...criterion, trial: 2 })).toEqual([400, expect.stringMatching(/^trial: no project record/)]);
  });
});
