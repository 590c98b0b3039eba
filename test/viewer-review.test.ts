// Labelling in `assay view` end to end: a checks-only job (the sample benchmark, the oracle, 1 task, 1 trial)
// runs on a real Temporal server, the real CLI serves the viewer with --reviewer, and headless Chromium labels
// a blind sample of 3 items with the keyboard. The reviews land beside the records (which stay byte for byte
// as they were), with the item's digest from the job lock and the judge's decision filled by the server; the
// judge's decision is hidden until the reviewer decided. Writes from another origin are refused, bad input is
// named, and two reviewers posting at once are both stored.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { itemDigestOf, type JobLock, type Review } from '@assay/core';
import type { ReviewQueue } from '../packages/viewer/client/api.js';
import type { ViewerBrowser } from '../packages/viewer/scripts/launch-chromium.js';
import { postJson } from './support/e2e.js';
import { reviewsOf as reviewsOfFolder, recordFiles } from './support/records.js';
import { useViewerJobs } from './support/viewer-jobs.js';

const TASK = 'fin-term-loan-schedule';
let browser: ViewerBrowser;
let url: string;
let results: string;
let recordsBefore: Map<string, string>;

const reviewsOf = (reviewer: string): Review[] => reviewsOfFolder(results, reviewer);

const post = (pathname: string, body: unknown, headers: Record<string, string>) =>
  postJson<{ error?: string; review?: Review }>(url, pathname, body, headers);

const jobs = useViewerJobs(
  [{ id: 'view-review', trials: 1, tasks: [TASK], systems: [{ id: 'oracle', harness: 'oracle' }] }],
  {
    viewArgs: ([file]) => [file!, '--reviewer', 'ana'],
    afterRun: ([r]) => {
      recordsBefore = recordFiles(r!);
    },
  },
);
beforeAll(() => {
  ({ browser, url } = jobs());
  results = jobs().results[0]!;
});

describe('labelling in the viewer', () => {
  it('labels a blind sample with the keyboard; reviews beside the records, records unchanged', async () => {
    const { page, errors } = await browser.newPage();
    // What the page asks the server for: nothing that carries verdicts (a decided item's judge decision and
    // anchors come with the answer to the reviewer's own POST).
    const verdictRequests: string[] = [];
    page.on('request', (r) => void (r.url().includes('/api/trial/') && verdictRequests.push(r.url())));
    await page.goto(url);
    await page.click('[data-testid=review-link]');
    await page.waitForSelector('[data-testid=review-setup]');
    expect(page.url()).toContain('#/review/0');
    // --reviewer names the reviewer the page starts with.
    await expect.poll(() => page.inputValue('input[name=reviewer]')).toBe('ana');
    await page.selectOption('select[name=mode]', 'sample');
    await page.fill('input[name=size]', '3');
    await page.fill('input[name=seed]', '5');
    await page.check('input[name=blind]');
    await page.click('[data-testid=review-start]');
    await page.waitForSelector('[data-testid=review-item]');
    expect(await page.locator('[data-testid=review-position]').textContent()).toBe('1');

    const keys = ['s', 'n', 'c'] as const;
    const labelled: string[] = [];
    for (const [i, key] of keys.entries()) {
      const item = page.locator('[data-testid=review-item]');
      await expect.poll(() => page.locator('[data-testid=review-position]').textContent()).toBe(String(i + 1));
      labelled.push((await item.getAttribute('data-item'))!);
      expect(await page.locator('[data-testid=review-text]').textContent()).not.toContain('not available');
      // Blind: nothing of the judge's decision before deciding.
      expect(await page.locator('[data-testid=judge-hidden]').count()).toBe(1);
      expect(await page.locator('[data-testid=judge-decision]').count()).toBe(0);
      if (i === 0) await page.waitForSelector('[data-testid=deliverables]');
      expect(verdictRequests).toEqual([]);
      if (i === 1) {
        await page.keyboard.press('/');
        await page.keyboard.type('looks wrong to me');
        await page.keyboard.press('Escape');
        await page.fill('input[name=evidence]', 'debt_schedule.xlsx!Summary!B2, lender_note.md#L1');
        await page.keyboard.press('Escape');
        // Anchors picked by clicking in the deliverables: cells (one twice, one also typed), a line of the note,
        // and one picked then removed.
        const pane = page.locator('[data-testid=deliverables]');
        await pane.locator('.tabs button', { hasText: 'debt_schedule.xlsx' }).click();
        for (const cell of ['Summary!B3', 'Summary!B3', 'Summary!B2', 'Inputs!B2'])
          await pane.locator(`td[data-anchor="${cell}"]`).click();
        await page.click('[aria-label="remove debt_schedule.xlsx!Inputs!B2"]');
        await pane.locator('.tabs button', { hasText: 'lender_note.md' }).click();
        await pane.locator('[data-anchor="line 1"]').click();
        expect(
          await page.locator('[data-testid=picked-anchor]').evaluateAll((els) => els.map((e) => e.dataset.anchor)),
        ).toEqual(['debt_schedule.xlsx!Summary!B3', 'debt_schedule.xlsx!Summary!B2', 'lender_note.md line 1']);
      }
      if (i === 2) {
        // The picks do not follow the reviewer to the next item, and the queue is not finished yet.
        expect(await page.locator('[data-testid=picked-anchor]').count()).toBe(0);
        expect(await page.locator('[data-testid=review-finished]').count()).toBe(0);
      }
      await page.keyboard.press(key);
      // Decided: the judge's decision (the oracle's checks all pass) is shown now.
      await page.waitForSelector('[data-testid=judge-decision]');
      expect(await page.locator('[data-testid=judge-decision]').textContent()).toMatch(/^judge: satisfied/);
      expect(await page.locator('[data-testid=your-review]').textContent()).toContain(
        { s: 'satisfied', n: 'not-satisfied', c: 'cant-tell' }[key],
      );
      if (i < keys.length - 1) await page.keyboard.press('j');
    }
    expect(new Set(labelled).size).toBe(3);
    expect(verdictRequests).toEqual([]);
    // Every item reviewed: the decisions counted, and the agreement with the judge (satisfied on all 3) over the
    // items both decided (not the can't tell).
    const finished = page.locator('[data-testid=review-finished]');
    await finished.waitFor();
    expect(await finished.textContent()).toBe(
      "Queue finished: all 3 items reviewed by ana — satisfied 1, not satisfied 1, can't tell 1. " +
        'You agree with the judge on 1 of the 2 items you both decided. agreement for this source',
    );
    expect(await finished.locator('a').getAttribute('href')).toBe('#/agreement/0');
    // Back with k: the item decided before keeps its judge's decision shown.
    await page.keyboard.press('k');
    await expect.poll(() => page.locator('[data-testid=review-position]').textContent()).toBe('2');
    expect(await page.locator('[data-testid=judge-decision]').count()).toBe(1);

    const lock = JSON.parse(readFileSync(path.join(results, 'job-lock.json'), 'utf8')) as JobLock;
    const reviews = reviewsOf('ana');
    expect(reviews.map((r) => [r.item.id, r.decision])).toEqual([
      [labelled[0], 'satisfied'],
      [labelled[1], 'not-satisfied'],
      [labelled[2], 'cant-tell'],
    ]);
    for (const r of reviews) {
      expect(r).toMatchObject({
        source: 'job',
        unit: `tasks/${TASK}`,
        system: 'oracle',
        trial: 1,
        blind: true,
        judgeDecision: 'satisfied',
        item: { scope: null },
      });
      expect(r.itemDigest).toBe(itemDigestOf(lock.units[`tasks/${TASK}`]!.items[r.item.id]!));
    }
    expect(reviews[1]).toMatchObject({
      note: 'looks wrong to me',
      // Typed first, then picked; the cell both typed and picked once.
      evidence: [
        'debt_schedule.xlsx!Summary!B2',
        'lender_note.md#L1',
        'debt_schedule.xlsx!Summary!B3',
        'lender_note.md line 1',
      ],
    });
    expect(reviews[0]).toMatchObject({ note: '', evidence: [] });
    // A reload of the same queue: the same items in the same order (the seed), each shown as reviewed.
    await page.reload();
    await page.waitForSelector('[data-testid=your-review]');
    expect(await page.locator('[data-testid=review-item]').getAttribute('data-item')).toBe(labelled[1]);
    await page.waitForSelector('[data-testid=review-finished]');
    expect(recordFiles(results)).toEqual(recordsBefore);
    expect(errors).toEqual([]);
  });

  it('refuses writes from elsewhere, names bad fields, and keeps two reviewers posting at once', async () => {
    const own = new URL(url);
    const origin = `http://${own.host}`;
    const base = { unit: `tasks/${TASK}`, system: 'oracle', trial: 1, itemId: 'schedule-present' };
    const body = { ...base, reviewer: 'ben', decision: 'satisfied', judgeDecision: 'not-satisfied' };
    const evil = await post('/api/reviews/0', body, { origin: 'http://evil.example' });
    expect(evil.status).toBe(403);
    expect(evil.body.error).toContain('Origin http://evil.example');
    const rebound = await post('/api/reviews/0', body, {
      host: `evil.example:${own.port}`,
      origin: 'http://evil.example',
    });
    expect(rebound.status).toBe(403);
    expect((await post('/api/reviews/0', body, {})).status).toBe(403);
    const badDecision = await post('/api/reviews/0', { ...body, decision: 'yes' }, { origin });
    expect(badDecision.status).toBe(400);
    expect(badDecision.body.error).toMatch(/^decision: /);
    const badItem = await post('/api/reviews/0', { ...body, itemId: 'nope' }, { origin });
    expect(badItem.body.error).toMatch(/^itemId: /);
    const badName = await post('/api/reviews/0', { ...body, reviewer: '../x' }, { origin });
    expect(badName.body.error).toMatch(/^reviewer: /);

    const [ben, cleo] = await Promise.all([
      post('/api/reviews/0', body, { origin }),
      post('/api/reviews/0', { ...body, reviewer: 'cleo', decision: 'not-satisfied' }, { origin }),
    ]);
    expect([ben.status, cleo.status]).toEqual([200, 200]);
    // The client's judgeDecision is ignored: the server takes the record's.
    expect(reviewsOf('ben').map((r) => [r.item.id, r.decision, r.judgeDecision])).toEqual([
      ['schedule-present', 'satisfied', 'satisfied'],
    ]);
    expect(reviewsOf('cleo').map((r) => [r.item.id, r.decision])).toEqual([['schedule-present', 'not-satisfied']]);
    // The queue's API: blind hides the judge's decision from a reviewer who has not decided, not from one who has.
    const queue = async (q: string) =>
      ((await (await fetch(new URL(`/api/review-queue/0?${q}`, url))).json()) as ReviewQueue).entries;
    const sample = 'mode=sample&size=3&seed=5&blind=1';
    expect((await queue(`reviewer=dan&${sample}`)).map((e) => e.judge)).toEqual([null, null, null]);
    expect((await queue(`reviewer=ana&${sample}`)).map((e) => e.judge?.decision)).toEqual(Array(3).fill('satisfied'));
    // Unjudged mode: the 3 items the checks left to a judge, the machine's "unjudged" shown when not blind.
    const unjudged = await queue('reviewer=dan&mode=unjudged');
    expect(unjudged.map((e) => [e.judge?.decision, e.reviewed])).toEqual(Array(3).fill(['unjudged', null]));
    expect(
      unjudged.every((e) => e.check === null && e.text !== null && /^[0-9a-f]{64}$/.test(e.itemDigest ?? '')),
    ).toBe(true);
    const badMode = await fetch(new URL('/api/review-queue/0?mode=all', url));
    expect([badMode.status, ((await badMode.json()) as { error: string }).error]).toEqual([
      400,
      expect.stringMatching(/^mode: /),
    ]);
    const listed = (await (await fetch(new URL('/api/reviews/0', url))).json()) as { reviews: Review[] };
    expect(listed.reviews.map((r) => r.reviewer).sort()).toEqual(['ana', 'ana', 'ana', 'ben', 'cleo']);
    expect(recordFiles(results)).toEqual(recordsBefore);
  });

  it('a person deciding the unjudged items gives the overview a score with reviews, and says on what basis', async () => {
    const origin = `http://${new URL(url).host}`;
    const queue = (await (
      await fetch(new URL('/api/review-queue/0?reviewer=dan&mode=unjudged', url))
    ).json()) as ReviewQueue;
    expect(queue.entries.length).toBeGreaterThan(0);
    for (const e of queue.entries) {
      const body = {
        reviewer: 'dan',
        unit: e.unit,
        system: e.system,
        trial: e.trial,
        itemId: e.itemId,
        decision: 'satisfied',
      };
      expect((await post('/api/reviews/0', body, { origin })).status).toBe(200);
    }
    const { page, errors } = await browser.newPage();
    await page.goto(url);
    await page.waitForSelector('[data-testid=leaderboard-reviews] [data-testid=review-basis] li');
    expect(await page.locator('[data-testid=review-basis] li').allTextContents()).toEqual([
      expect.stringMatching(
        /^oracle: judge 0, judge \+ reviews 1, reviews only 0; \d+ disagreements?, 0 stale reviews$/,
      ),
    ]);
    // Every item is decided now: a full score on the board (the machine's own board still has none).
    const row = page.locator('[data-testid=leaderboard-reviews] tbody tr').first();
    expect(await row.textContent()).toMatch(/^1oracle.*\d+\.\d/);
    expect(recordFiles(results)).toEqual(recordsBefore);
    expect(errors).toEqual([]);
  });
});
