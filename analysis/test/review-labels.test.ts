// People's reviews in a job's results store are the report's expert labels: no CSV by hand. Per item the
// majority of each reviewer's latest review; can't tell and ties give no label; a review of an item whose
// content changed since (the job lock's digest) is stale and left out. Agreement checked by hand.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acceptUnits, itemDigestOf, type Verdict } from '@assay/core';
import { createFsResultsStore, writeReview, type NewReview } from '@assay/results';
import { loadJobResults } from '../src/load-results.js';
import { writeReport } from '../src/report/write-report.js';
import { rowsOf } from '../src/table-helpers.js';
import { writeSyntheticResults } from './fixtures/synthetic-results.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('reviews as labels in assay report', () => {
  it('agreement and kappa on the items people labelled, stale and undecided reviews left out', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'assay-review-labels-'));
    dirs.push(dir);
    await writeSyntheticResults(
      dir,
      { systems: [{ id: 'alpha', harness: 'nanobot', model: 'A', skill: 0 }], tasks: 3, trials: 2 },
      { trials: true },
    );
    const trials = (await loadJobResults(dir)).trials;
    const all = trials.flatMap((t) => t.verdicts.map((v) => ({ t, v })));
    const decided = (d: Verdict['decision']) => all.filter(({ v }) => v.decision === d);
    const [s1, s2] = decided('satisfied');
    const [n1, n2, n3, n4] = decided('not-satisfied');
    expect([s1, s2, n1, n2, n3, n4].every(Boolean)).toBe(true);
    // The lock: each item's content as it is now (n3's changed after it was reviewed).
    const fields = (id: string) => ({ check: `sha256:${id}` });
    const units = Object.fromEntries(
      trials.map((t) => [
        `tasks/${t.task.id}`,
        {
          digest: t.task.id,
          parts: {},
          items: Object.fromEntries(t.verdicts.map((v) => [v.itemId, fields(v.itemId)])),
        },
      ]),
    );
    const lock = acceptUnits(null, { jobId: 'synthetic-job', specDigest: 'd', units }, 'now');
    await writeFile(path.join(dir, 'job-lock.json'), JSON.stringify(lock));

    const store = createFsResultsStore(dir);
    type Pick = { t: (typeof trials)[number]; v: Verdict };
    const review = (
      reviewer: string,
      { t, v }: Pick,
      decision: NewReview['decision'],
      digest = itemDigestOf(fields(v.itemId)),
    ) =>
      writeReview(store, {
        reviewer,
        source: 'job',
        unit: `tasks/${t.task.id}`,
        system: t.system.id,
        trial: t.trial,
        item: { id: v.itemId, scope: null },
        itemDigest: digest,
        decision,
        note: '',
        evidence: [],
        blind: true,
        judgeDecision: v.decision,
      });
    // Judge [1, 1, 0, 0] against people [1, 0, 0, 0]: s2 is a disagreement; ana changed her mind on n1.
    await review('ana', s1!, 'satisfied');
    await review('ana', s2!, 'not-satisfied');
    await review('ana', n1!, 'satisfied');
    await review('ana', n1!, 'not-satisfied');
    await review('ben', n2!, 'not-satisfied');
    // No label: a stale review, a tie, and can't tell.
    await review('ana', n3!, 'satisfied', 'f'.repeat(64));
    await review('ana', n4!, 'satisfied');
    await review('ben', n4!, 'not-satisfied');
    await review('cy', s1!, 'cant-tell');

    const out = path.join(dir, 'report');
    const result = await writeReport({ jobDirs: [dir], outDir: out, resamples: 200 });
    expect(result.reviews).toMatchObject({ labelled: 4, stale: 1, problems: [] });
    const agreement = result.analysis.labelAgreement!;
    const [pooled] = rowsOf<Record<string, number | string>>(agreement.rows);
    // By hand: p_o = 3/4; p_e = (2/4)(1/4) + (2/4)(3/4) = 1/2; kappa = (3/4 - 1/2) / (1 - 1/2) = 1/2.
    expect(pooled).toMatchObject({
      ...{ setup: 'synthetic-job', kind: 'task', by: 'all', group: 'all', n: 4, agree: 3, agreement: 75 },
      ...{ both_satisfied: 1, judge_only: 1, human_only: 0, both_not: 2, unjudged: 0, unmatched: 0 },
    });
    expect(pooled!.kappa).toBeCloseTo(0.5, 12);
    expect(pooled!.kappa_low).toBeLessThanOrEqual(0.5);
    expect(pooled!.kappa_high).toBe(1);
    expect(rowsOf(agreement.disagreements)).toEqual([
      expect.objectContaining({ system: s2!.t.system.id, unit: s2!.t.task.id, item: s2!.v.itemId, judge: 1, human: 0 }),
    ]);
    // People against each other: ana and ben on n4 (1 shared, disagreeing); ana and cy on s1, cy can't tell.
    expect(rowsOf(result.analysis.reviewerAgreement!)).toEqual([
      expect.objectContaining({ a: 'ana', b: 'ben', shared: 1, n: 1, agree: 0, cant_tell: 0 }),
      expect.objectContaining({ a: 'ana', b: 'cy', shared: 1, n: 0, agree: 0, kappa: null, cant_tell: 1 }),
    ]);
    expect(result.tables.map((t) => t.id)).toEqual(expect.arrayContaining(['agreement-tasks', 'agreement-reviewers']));
    const table = readFileSync(path.join(out, 'tables', 'agreement-tasks.md'), 'utf8');
    expect(table).toContain('| synthetic-job | all | all | 4 | 3 | 75.00 | 0.500 |');
  });
});
