// Judge agreement where people decide, end to end: a job (the oracle and a scripted agent that leaves a
// deliverable out, so the checks decide both ways) runs on a real Temporal server; in headless Chromium a
// reviewer labels a blind stratified sample with the keyboard, two more reviewers post theirs at once; then the
// agreement page shows the same n, agreement, kappa and interval as `assay report --json` of the same job and as
// a hand computation from the stored reviews and records, and a disagreement opens its item.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Review } from '@assay/core';
import { createFsResultsStore, readReviews, readTrialRecords } from '@assay/results';
import type { ReviewQueue } from '../packages/viewer/client/api.js';
import { collectOutput, postJson, spawnCli } from './support/e2e.js';
import { recordFiles } from './support/records.js';
import { useViewerJobs } from './support/viewer-jobs.js';

const TASK = 'fin-term-loan-schedule';
// Larger than the decided items: the sample is all of them, so the judge's decisions go both ways in it.
const SIZE = 60;
const jobs = useViewerJobs(
  [
    {
      id: 'view-agreement',
      trials: 1,
      tasks: [TASK],
      systems: [
        { id: 'oracle', harness: 'oracle' },
        { id: 'wrong', harness: 'scripted', settings: { agent: 'missing-deliverable' } },
      ],
    },
  ],
  { viewArgs: ([file]) => [file!, '--reviewer', 'ana'] },
);

/** Judge agreement by hand: each reviewer's latest review per item, the majority of those who decided. */
async function byHand(results: string) {
  const store = createFsResultsStore(results);
  const reviews = await readReviews(store);
  const latest = new Map<string, Review>();
  for (const r of [...reviews].sort((a, b) => a.at.localeCompare(b.at)))
    latest.set([r.reviewer, r.system, r.item.id].join('/'), r);
  const votes = new Map<string, number[]>();
  for (const r of latest.values()) {
    if (r.decision === 'cant-tell') continue;
    const key = `${r.system}/${r.item.id}`;
    votes.set(key, [...(votes.get(key) ?? []), r.decision === 'satisfied' ? 1 : 0]);
  }
  const judge = new Map<string, string>();
  for (const t of await readTrialRecords(store))
    for (const v of t.verdicts) judge.set(`${t.system.id}/${v.itemId}`, v.decision);
  const cells = { yy: 0, yn: 0, ny: 0, nn: 0 };
  for (const [key, vs] of votes) {
    const yes = vs.filter((v) => v === 1).length;
    if (yes * 2 === vs.length) continue; // a tie: no label
    const human = yes * 2 > vs.length;
    const j = judge.get(key);
    if (j !== 'satisfied' && j !== 'not-satisfied') continue;
    const cell = `${j === 'satisfied' ? 'y' : 'n'}${human ? 'y' : 'n'}` as keyof typeof cells;
    cells[cell]++;
  }
  const n = cells.yy + cells.yn + cells.ny + cells.nn;
  const po = (cells.yy + cells.nn) / n;
  const judgeYes = (cells.yy + cells.yn) / n;
  const humanYes = (cells.yy + cells.ny) / n;
  const pe = judgeYes * humanYes + (1 - judgeYes) * (1 - humanYes);
  return { n, agree: cells.yy + cells.nn, agreement: 100 * po, kappa: (po - pe) / (1 - pe), cells };
}

describe('agreement in the viewer', () => {
  it('equals assay report and a hand computation on labels made blind in the page', async () => {
    const {
      browser,
      server,
      files,
      results: [results],
    } = jobs();
    const file = files[0]!;
    const recordsBefore = recordFiles(results!);
    const { page, errors } = await browser.newPage();
    await page.goto(url());
    await page.click('[data-testid=review-link]');
    await page.waitForSelector('[data-testid=review-setup]');
    await page.selectOption('select[name=mode]', 'sample');
    await page.fill('input[name=size]', String(SIZE));
    await page.fill('input[name=seed]', '11');
    await page.check('input[name=blind]');
    await page.click('[data-testid=review-start]');
    await page.waitForSelector('[data-testid=review-item]');
    const queueUrl = `/api/review-queue/0?reviewer=ana&mode=sample&size=${SIZE}&seed=11&blind=1`;
    const count = ((await (await fetch(new URL(queueUrl, url()))).json()) as ReviewQueue).entries.length;
    expect(count).toBeGreaterThan(4);
    // ana decides "satisfied" on the first half and "not satisfied" on the rest, blind.
    const labelled: string[] = [];
    for (let i = 0; i < count; i++) {
      await expect.poll(() => page.locator('[data-testid=review-position]').textContent()).toBe(String(i + 1));
      expect(await page.locator('[data-testid=judge-hidden]').count()).toBe(1);
      labelled.push((await page.locator('[data-testid=review-item]').getAttribute('data-item'))!);
      await page.keyboard.press(i < count / 2 ? 's' : 'n');
      await page.waitForSelector('[data-testid=judge-decision]');
      if (i < count - 1) await page.keyboard.press('j');
    }
    await page.waitForSelector('[data-testid=review-finished]');
    const queue = (await (await fetch(new URL(queueUrl, url()))).json()) as ReviewQueue;
    expect(queue.entries.map((e) => e.itemId)).toEqual(labelled);
    expect(new Set(queue.entries.map((e) => e.system))).toEqual(new Set(['oracle', 'wrong']));
    expect(new Set(queue.entries.map((e) => e.judge?.decision))).toEqual(new Set(['satisfied', 'not-satisfied']));

    // ben and cleo post theirs at once, on the same items: ben agrees with the judge, cleo with nobody in particular.
    const origin = `http://${new URL(url()).host}`;
    const posts = queue.entries.flatMap((e, i) =>
      (['ben', 'cleo'] as const).map((reviewer) => {
        const decision =
          reviewer === 'ben'
            ? e.judge!.decision
            : i % 3 === 0
              ? 'cant-tell'
              : i % 2 === 0
                ? 'satisfied'
                : 'not-satisfied';
        const body = { reviewer, unit: e.unit, system: e.system, trial: e.trial, itemId: e.itemId, decision };
        return postJson<{ review?: Review }>(url(), '/api/reviews/0', body, { origin });
      }),
    );
    expect((await Promise.all(posts)).map((p) => p.status)).toEqual(Array(2 * count).fill(200));
    const stored = await readReviews(createFsResultsStore(results!));
    expect(stored.filter((r) => r.reviewer === 'ben')).toHaveLength(count);
    expect(stored.filter((r) => r.reviewer === 'cleo')).toHaveLength(count);
    expect(stored.filter((r) => r.reviewer === 'ana')).toHaveLength(count);

    const hand = await byHand(results!);
    const out = collectOutput(
      spawnCli(['report', file, '--json', '--out', path.join(path.dirname(file), 'report')], server.address),
    );
    expect(await out.exit, out.text()).toBe(0);
    const json = JSON.parse(out.text().slice(out.text().indexOf('{'))) as {
      analysis: { labelAgreement: { rows: Record<string, unknown>[] }; reviewerAgreement: Record<string, unknown>[] };
    };
    const pooled = json.analysis.labelAgreement.rows.find((r) => r.by === 'all')!;
    expect(pooled).toMatchObject({ setup: 'view-agreement', n: hand.n, agree: hand.agree });
    expect(pooled.agreement as number).toBeCloseTo(hand.agreement, 10);
    expect(pooled.kappa as number).toBeCloseTo(hand.kappa, 10);
    expect(hand.n).toBeGreaterThan(2);

    await page.goto(`${url()}#/agreement/0`);
    const row = page.locator('[data-testid=agreement-row][data-by=all]');
    await row.waitFor();
    const cell = (col: string) => row.locator(`[data-col=${col}]`).textContent();
    expect(await cell('n')).toBe(String(hand.n));
    expect(await cell('agree')).toBe(String(hand.agree));
    expect(await cell('agreement')).toBe(hand.agreement.toFixed(2));
    expect(await cell('kappa')).toBe(hand.kappa.toFixed(3));
    const ci = (x: unknown) => (typeof x === 'number' ? x.toFixed(3) : '—');
    expect(await cell('kappa-ci')).toBe(
      pooled.kappa_low === null ? '—' : `[${ci(pooled.kappa_low)}, ${ci(pooled.kappa_high)}]`,
    );
    const confusion = await page.locator('[data-testid=confusion] td').allTextContents();
    expect(confusion).toEqual([hand.cells.yy, hand.cells.yn, hand.cells.ny, hand.cells.nn].map(String));
    // Reviewers against each other, as the report has them.
    const raters = await page.locator('[data-testid=reviewer-agreement] tbody tr').allTextContents();
    expect(raters).toHaveLength(json.analysis.reviewerAgreement.length);
    expect(raters[0]).toMatch(/^anaben/);
    // A disagreement opens its item on the trial page.
    const first = page.locator('[data-testid=disagreement]').first();
    if ((await first.count()) > 0) {
      await first.click();
      await expect.poll(() => page.url()).toMatch(/#\/trial\/0\/(oracle|wrong)\/fin-term-loan-schedule\/1\/item\//);
    }
    expect(recordFiles(results!)).toEqual(recordsBefore);
    expect(errors).toEqual([]);
  });
});

function url(): string {
  return jobs().url;
}
