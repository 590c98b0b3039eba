// The viewer's agreement API over a job with a re-judged setup and people's reviews: the same rows, intervals
// and disagreements `assay report` computes from the same folders (report and viewer call the same analysis),
// a stale review left out, reviewers against each other, and the disagreements naming the source that opens them.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReport } from '@assay/analysis';
import { acceptUnits, itemDigestOf, type TrialRecord, type Verdict } from '@assay/core';
import { createFsResultsStore, jobKey, jobLockKey, judgeRootKey, trialRecordKey, writeReview } from '@assay/results';
import { makeTrialRecord } from '../../results/test/make-records.js';
import type { AgreementView } from '../client/api.js';
import { createViewerApp } from '../src/create-viewer-app.js';
import { resolveSources } from '../src/resolve-sources.js';

const ITEMS = ['i1', 'i2', 'i3', 'i4', 'i5'];
const fieldsOf = (id: string) => ({ text: `Item ${id} holds.`, importance: 'core' });
let dir: string;
let app: ReturnType<typeof createViewerApp>;

/** A trial whose items are decided as given (s / n / u). */
function trial(system: string, decisions: string): TrialRecord {
  const base = makeTrialRecord(system, 't1', 1);
  const verdicts: Verdict[] = ITEMS.map((itemId, i) => ({
    ...base.verdicts[0]!,
    itemId,
    importance: i < 3 ? 'core' : 'important',
    decision: ({ s: 'satisfied', n: 'not-satisfied', u: 'unjudged' } as const)[decisions[i] as 's' | 'n' | 'u'],
  }));
  return { ...base, jobId: 'j', verdicts };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'assay-agreement-api-'));
  const store = createFsResultsStore(dir);
  const alt = store.scoped(judgeRootKey('alt'));
  await store.putJson(jobKey(), { spec: { id: 'j' } });
  await alt.putJson(jobKey(), { spec: { id: 'j' }, rejudgedFrom: dir });
  const items = Object.fromEntries(ITEMS.map((id) => [id, fieldsOf(id)]));
  const lock = acceptUnits(
    null,
    { jobId: 'j', specDigest: 'd', units: { 'tasks/t1': { digest: 'x', parts: {}, items } } },
    'now',
  );
  await store.putJson(jobLockKey(), lock);
  await alt.putJson(jobLockKey(), lock);
  for (const [system, own, rejudged] of [
    ['a', 'ssnnu', 'snnns'],
    ['b', 'snsns', 'ssssn'],
  ] as const) {
    await store.putJson(trialRecordKey(system, 't1', 1), trial(system, own));
    await alt.putJson(trialRecordKey(system, 't1', 1), trial(system, rejudged));
  }
  const review = (reviewer: string, system: string, itemId: string, decision: string, digest?: string) =>
    writeReview(store, {
      reviewer,
      source: 'job',
      unit: 'tasks/t1',
      system,
      trial: 1,
      item: { id: itemId, scope: null },
      itemDigest: digest ?? itemDigestOf(fieldsOf(itemId)),
      decision: decision as 'satisfied',
      note: '',
      evidence: [],
      blind: true,
      judgeDecision: 'satisfied',
    });
  for (const [system, labels] of [
    ['a', 'snnsn'],
    ['b', 'sssnn'],
  ] as const)
    for (const [i, id] of ITEMS.entries())
      await review('ana', system, id, labels[i] === 's' ? 'satisfied' : 'not-satisfied');
  await review('ben', 'a', 'i1', 'satisfied');
  await review('ben', 'a', 'i2', 'satisfied');
  await review('ben', 'a', 'i3', 'cant-tell');
  await review('cy', 'b', 'i1', 'not-satisfied', 'f'.repeat(64)); // stale: the item changed since
  app = createViewerApp(await resolveSources([dir]), dir, { port: () => 4321 });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('agreement API', () => {
  it("equals the report's agreement on the same folders, per setup, with reviewers and disagreements", async () => {
    const res = await app.request('/api/agreement/0');
    expect(res.status).toBe(200);
    const view = (await res.json()) as AgreementView;
    const report = await writeReport({
      jobDirs: [dir, path.join(dir, 'judges', 'alt')],
      outDir: path.join(dir, 'report'),
      resamples: 100,
    });
    const agreement = report.analysis.labelAgreement!;
    expect(view.rows).toEqual(agreement.rows.objects());
    expect(view.disagreements.map(({ source: _source, ...d }) => d)).toEqual(agreement.disagreements.objects());
    expect(view.reviewers).toEqual(report.analysis.reviewerAgreement!.objects());
    expect(view.setups).toEqual([
      { name: 'j', source: '0' },
      { name: 'j+judge:alt', source: '0.alt' },
    ]);
    // ana and ben agree on i1; ben's "satisfied" on i2 makes a tie with ana's "not": no label there. cy's is stale.
    expect(view.reviews).toEqual({ items: 10, labelled: 9, stale: 1 });
    // By hand, the job's own judge: a judged [s s n n -] against labels [s - n s n], b [s n s n s] against [s s s n n].
    // Pairs (judge, label): a (1,1) (0,0) (0,1); b (1,1) (0,1) (1,1) (0,0) (1,0) => n 8, agree 5, unjudged 1 (a i5).
    // p_o = 5/8; judge yes 4/8, label yes 5/8: p_e = 20/64 + 12/64 = 1/2; kappa = (5/8 - 1/2) / (1/2) = 1/4.
    const pooled = view.rows.find((r) => r.setup === 'j' && r.by === 'all')!;
    expect(pooled).toMatchObject({
      n: 8,
      agree: 5,
      unjudged: 1,
      both_satisfied: 3,
      judge_only: 1,
      human_only: 2,
      both_not: 2,
    });
    expect(pooled.kappa).toBeCloseTo(1 / 4, 12);
    expect(pooled.kappa_low).toBeLessThan(pooled.kappa!);
    expect(pooled.kappa_high).toBeGreaterThan(pooled.kappa!);
    expect(view.rows.filter((r) => r.setup === 'j').map((r) => `${r.by}:${r.group}`)).toEqual([
      'all:all',
      'system:a',
      'system:b',
      'importance:core',
      'importance:important',
      'dimension:calculation-precision',
    ]);
    expect(view.disagreements.filter((d) => d.setup === 'j+judge:alt').every((d) => d.source === '0.alt')).toBe(true);
    expect(view.reviewers).toEqual([
      expect.objectContaining({ a: 'ana', b: 'ben', shared: 3, n: 2, agree: 1, cant_tell: 1 }),
    ]);
    // A judge setup's page shows the same (its job's reviews), and an unknown source is named.
    expect(await (await app.request('/api/agreement/0.alt')).json()).toEqual(view);
    const unknown = await app.request('/api/agreement/7');
    expect(unknown.status).toBe(404);
  });
});
