// The README's kind of job (checks-only) leaves items unjudged, so no trial has a score. A person's reviews
// decide them: `assay status` then shows a full score for the reviewed trial, basis "judge + reviews", beside
// the machine's summary; a disagreement with a check keeps the check's verdict unless --prefer reviews.
// Scores checked by hand from the record's weights. The record itself is never changed.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockedItemDigests, type JobLock } from '@assay/core';
import { createFsResultsStore, writeReview } from '@assay/results';
import { collectOutput, spawnCli, useTestServer, writeJob } from './support/e2e.js';
import { readTrials } from './support/records.js';

const server = useTestServer();

async function cli(args: string[]): Promise<{ code: number | null; text: string }> {
  const child = collectOutput(spawnCli(args, server().address));
  return { code: await child.exit, text: child.text() };
}

describe('status with reviews', () => {
  it('a person deciding the unjudged items gives the trial a full score, basis judge + reviews', async () => {
    const file = writeJob({
      id: `reviews-${process.pid}`,
      tasks: ['edu-fractions-lesson'],
      trials: 1,
      systems: [{ id: 'oracle', harness: 'oracle' }],
    });
    const results = path.join(path.dirname(file), 'results');
    const run = await cli(['run', file]);
    expect(run.code, run.text).toBe(0);
    const [record] = await readTrials(results);
    const recordFile = path.join(results, 'trials/oracle/edu-fractions-lesson/1/record.json');
    const before = readFileSync(recordFile);
    expect(record!.score.value).toBeNull();
    const unjudged = record!.verdicts.filter((v) => v.decision === 'unjudged');
    const checked = record!.verdicts.find((v) => v.decision === 'satisfied');
    expect(unjudged.length).toBeGreaterThan(0);
    expect(checked).toBeDefined();

    const lock = JSON.parse(readFileSync(path.join(results, 'job-lock.json'), 'utf8')) as JobLock;
    const digests = lockedItemDigests(lock, 'tasks/edu-fractions-lesson')!;
    const store = createFsResultsStore(results);
    const review = (itemId: string, decision: 'satisfied' | 'not-satisfied', judgeDecision: 'satisfied' | 'unjudged') =>
      writeReview(store, {
        reviewer: 'ana',
        source: 'job',
        unit: 'tasks/edu-fractions-lesson',
        system: 'oracle',
        trial: 1,
        item: { id: itemId, scope: null },
        itemDigest: digests[itemId]!,
        decision,
        note: '',
        evidence: [],
        blind: true,
        judgeDecision,
      });
    for (const v of unjudged) await review(v.itemId, 'satisfied', 'unjudged');
    await review(checked!.itemId, 'not-satisfied', 'satisfied');

    const total = record!.verdicts.reduce((n, v) => n + v.weight, 0);
    const status = await cli(['status', file]);
    expect(status.code, status.text).toBe(0);
    expect(status.text).toContain(`with people's reviews (${unjudged.length + 1} reviews;`);
    // The check stands: every item satisfied.
    expect(status.text).toMatch(/^oracle\s+100\.0\s+100\.0\s+100\.0\s+1\s+0 \/ 1 \/ 0\s+1\s+0\s*$/m);
    const preferred = await cli(['status', file, '--json', '--prefer', 'reviews']);
    const json = JSON.parse(preferred.text.slice(preferred.text.indexOf('{'))) as {
      summary: { meanScore: number | null }[];
      reviews: {
        prefer: string;
        summary: { meanScore: number; basis: Record<string, number>; disagreements: number }[];
      };
    };
    expect(json.summary[0]?.meanScore).toBeNull();
    expect(json.reviews.prefer).toBe('reviews');
    // By hand: the person's "not satisfied" takes the check's item out of the credit.
    expect(json.reviews.summary[0]?.meanScore).toBeCloseTo((100 * (total - checked!.weight)) / total, 10);
    expect(json.reviews.summary[0]).toMatchObject({
      basis: { judge: 0, 'judge + reviews': 1, 'reviews only': 0 },
      disagreements: 1,
    });
    // The report ranks the same: the machine has no full score, with reviews the trial has one, by either policy.
    for (const [prefer, mean] of [
      ['judge', 100],
      ['reviews', (100 * (total - checked!.weight)) / total],
    ] as const) {
      const out = path.join(path.dirname(file), `report-${prefer}`);
      const report = await cli(['report', file, '--out', out, '--json', '--prefer', prefer]);
      expect(report.code, report.text).toBe(0);
      const { analysis } = JSON.parse(report.text.slice(report.text.indexOf('{'))) as {
        analysis: { withReviews: { prefer: string; leaderboard: { system: string; mean: number }[] } };
      };
      expect(analysis.withReviews.prefer).toBe(prefer);
      expect(analysis.withReviews.leaderboard[0]?.system).toBe('oracle');
      expect(analysis.withReviews.leaderboard[0]?.mean).toBeCloseTo(mean, 10);
    }
    expect(readFileSync(recordFile)).toEqual(before);
    // The labels the reviews give, as a label file, and back in under another reviewer; a bad line refuses the
    // whole file and stores nothing.
    const exported = path.join(path.dirname(file), 'labels.csv');
    const exp = await cli(['reviews', 'export', file, '--out', exported]);
    expect(exp.code, exp.text).toBe(0);
    const lines = readFileSync(exported, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('system,unit,trial,item,scope,label');
    expect(lines.slice(1).sort()).toEqual(
      [
        ...unjudged.map((v) => `oracle,edu-fractions-lesson,1,${v.itemId},,1`),
        `oracle,edu-fractions-lesson,1,${checked!.itemId},,0`,
      ].sort(),
    );
    const badFile = path.join(path.dirname(file), 'bad.csv');
    writeFileSync(badFile, `${lines.join('\n')}\noracle,edu-fractions-lesson,1,no-such-item,,1\n`);
    const refused = await cli(['reviews', 'import', file, badFile, '--reviewer', 'ben']);
    expect(refused.code).toBe(1);
    expect(refused.text).toContain(
      `${badFile}:${lines.length + 1}: item: edu-fractions-lesson has no rubric item "no-such-item"; nothing was imported`,
    );
    expect(existsSync(path.join(results, 'reviews', 'ben'))).toBe(false);
    const imported = await cli(['reviews', 'import', file, exported, '--reviewer', 'ben']);
    expect(imported.code, imported.text).toBe(0);
    expect(readdirSync(path.join(results, 'reviews', 'ben'))).toHaveLength(lines.length - 1);
    const both = await cli(['status', file, '--json']);
    expect(JSON.parse(both.text.slice(both.text.indexOf('{'))).reviews.summary[0]).toMatchObject({
      disagreements: 1,
      stale: 0,
    });

    const bad = await cli(['status', file, '--prefer', 'people']);
    expect(bad.code).not.toBe(0);
    expect(bad.text).toContain('--prefer: "people" is not one of judge, reviews');
  }, 300_000);
});
