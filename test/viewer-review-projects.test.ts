// Labelling project criteria in `assay view` end to end: the sample project run by the oracle (1 trial,
// checks-only) on a real Temporal server, the real CLI serving the viewer with --reviewer, and headless Chromium
// labelling two criteria of a blind sample with the keyboard: one judged at a checkpoint (beside that
// checkpoint's snapshot) and one of the final package (beside the package). Nothing of the judge's decision is
// loaded before the reviewer decided; the reviews land beside the records (byte for byte as they were) with the
// criterion's scope, its digest from the job lock and the record's decision; the page's link opens the
// criterion on the project page.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { itemDigestOf, type JobLock, type ProjectRecord, type Review } from '@assay/core';
import type { ReviewQueue } from '../packages/viewer/client/api.js';
import type { ViewerBrowser } from '../packages/viewer/scripts/launch-chromium.js';
import { recordFiles, reviewsOf as reviewsOfFolder, readProjects, SAMPLE_PROJECT } from './support/records.js';
import { useViewerJobs } from './support/viewer-jobs.js';

const UNIT = `projects/${SAMPLE_PROJECT}`;
const QUEUE = 'mode=sample&size=20&seed=3&blind=1';
let browser: ViewerBrowser;
let url: string;
let results: string;
let record: ProjectRecord;
let recordsBefore: Map<string, string>;

const reviewsOf = (reviewer: string): Review[] => reviewsOfFolder(results, reviewer);

/** The record's decision of a criterion at a scope (a subtask's checkpoint, or final). */
function judgeDecision(scope: string, id: string): string | undefined {
  const verdicts =
    scope === 'final' ? record.final.verdicts : record.checkpoints.find((c) => c.subtaskId === scope)?.verdicts;
  return verdicts?.find((v) => v.criterionId === id)?.decision;
}

const jobs = useViewerJobs(
  [
    {
      id: 'view-review-projects',
      trials: 1,
      projects: [SAMPLE_PROJECT],
      systems: [{ id: 'oracle', harness: 'oracle' }],
    },
  ],
  {
    viewArgs: ([file]) => [file!, '--reviewer', 'ana'],
    afterRun: async ([r]) => {
      [record] = (await readProjects(r!)) as [ProjectRecord];
      recordsBefore = recordFiles(r!);
    },
  },
);
beforeAll(() => {
  ({ browser, url } = jobs());
  results = jobs().results[0]!;
});

describe('labelling project criteria in the viewer', () => {
  it('labels a checkpoint criterion and a final one, blind, with the keyboard; records unchanged', async () => {
    // The queue as the page will get it: criteria only (the job has no task), none showing the judge.
    const queued = (
      (await (await fetch(new URL(`/api/review-queue/0?reviewer=ana&${QUEUE}`, url))).json()) as ReviewQueue
    ).entries;
    expect(queued.length).toBeGreaterThan(2);
    expect(queued.every((e) => e.unit === UNIT && e.scope !== null && e.judge === null)).toBe(true);
    const cpAt = queued.findIndex((e) => e.scope !== 'final');
    const finalAt = queued.findIndex((e) => e.scope === 'final');
    expect([cpAt, finalAt].every((i) => i >= 0)).toBe(true);

    const { page, errors } = await browser.newPage();
    // Nothing that carries verdicts, ever: not the project's detail, not a trial's (each decided item's judge
    // decision and anchors come with the answer to the reviewer's own POST).
    const verdictRequests: string[] = [];
    page.on('request', (r) => {
      const { pathname } = new URL(r.url());
      if (/^\/api\/project\/[^/]+\/[^/]+\/[^/]+\/\d+$/.test(pathname) || pathname.startsWith('/api/trial/'))
        verdictRequests.push(pathname);
    });
    await page.goto(url);
    await page.click('[data-testid=review-link]');
    await page.waitForSelector('[data-testid=review-setup]');
    await expect.poll(() => page.inputValue('input[name=reviewer]')).toBe('ana');
    await page.selectOption('select[name=mode]', 'sample');
    await page.fill('input[name=size]', '20');
    await page.fill('input[name=seed]', '3');
    await page.check('input[name=blind]');
    await page.click('[data-testid=review-start]');
    await page.waitForSelector('[data-testid=review-item]');

    const position = page.locator('[data-testid=review-position]');
    const goTo = async (to: number) => {
      const from = Number(await position.textContent()) - 1;
      for (let i = from; i !== to; i += to > from ? 1 : -1) await page.keyboard.press(to > from ? 'j' : 'k');
      await expect.poll(() => position.textContent()).toBe(String(to + 1));
    };
    const item = page.locator('[data-testid=review-item]');
    const pane = page.locator('[data-testid=deliverables]');
    const links: string[] = [];
    for (const [at, key] of [
      [cpAt, 's'],
      [finalAt, 'n'],
    ] as const) {
      await goTo(at);
      const entry = queued[at]!;
      const scope = entry.scope!;
      expect(await item.getAttribute('data-item')).toBe(entry.itemId);
      expect(await item.getAttribute('data-scope')).toBe(scope);
      const where = scope === 'final' ? 'final package' : `checkpoint ${scope}`;
      expect(await page.locator('[data-testid=review-scope]').textContent()).toBe(
        `project criterion judged at the ${where}`,
      );
      expect(await page.locator('[data-testid=review-text]').textContent()).not.toContain('not available');
      expect(await page.locator('[data-testid=review-meta]').textContent()).toMatch(
        scope === 'final' ? /^target: [a-z-]+ · [a-z-]+/ : /^no target \(checkpoint\) · [a-z-]+/,
      );
      // The deliverables the judge saw for that scope: the checkpoint's snapshot outputs, or the final package.
      await expect
        .poll(() => page.locator('[data-testid=review-deliverables-heading]').textContent())
        .toContain(`Deliverables at the ${where}`);
      const expected =
        scope === 'final'
          ? record.final.packageFiles.map((f) => f.path)
          : record.checkpoints
              .find((c) => c.subtaskId === scope)!
              .snapshot.files.filter((f) => f.path.startsWith('outputs/'))
              .map((f) => f.path.slice('outputs/'.length));
      await expect
        .poll(async () => (await pane.locator('.tabs button').allTextContents()).map((t) => t.split(' ')[0]).sort())
        .toEqual([...expected].sort());
      // Blind: nothing of the judge's decision before deciding.
      expect(await page.locator('[data-testid=judge-hidden]').count()).toBe(1);
      expect(await page.locator('[data-testid=judge-decision]').count()).toBe(0);
      expect(await page.locator('[data-testid=review-open]').count()).toBe(0);
      expect(verdictRequests).toEqual([]);
      // A click in the pane picks an anchor (a cell of the databook).
      await pane.locator('.tabs button', { hasText: 'dd_model.xlsx' }).click();
      const cell = pane.locator('td[data-anchor]').first();
      const anchor = await cell.getAttribute('data-anchor');
      await cell.click();
      expect(
        await page.locator('[data-testid=picked-anchor]').evaluateAll((els) => els.map((e) => e.dataset.anchor)),
      ).toEqual([`dd_model.xlsx!${anchor}`]);

      await page.keyboard.press(key);
      await page.waitForSelector('[data-testid=judge-decision]');
      expect(await page.locator('[data-testid=judge-decision]').textContent()).toMatch(
        new RegExp(`^judge: ${judgeDecision(scope, entry.itemId)} — `),
      );
      expect(await page.locator('[data-testid=your-review]').textContent()).toContain(
        key === 's' ? 'satisfied' : 'not-satisfied',
      );
      const checkpoint = record.checkpoints.findIndex((c) => c.subtaskId === scope);
      const href = `#/project/0/oracle/${SAMPLE_PROJECT}/1${scope === 'final' ? '' : `/checkpoint/${checkpoint}`}/criterion/${entry.itemId}`;
      expect(await page.locator('[data-testid=review-open]').getAttribute('href')).toBe(href);
      links.push(href);
    }

    const lock = JSON.parse(readFileSync(path.join(results, 'job-lock.json'), 'utf8')) as JobLock;
    const reviews = reviewsOf('ana');
    expect(reviews.map((r) => [r.item.id, r.item.scope, r.decision])).toEqual([
      [queued[cpAt]!.itemId, queued[cpAt]!.scope, 'satisfied'],
      [queued[finalAt]!.itemId, 'final', 'not-satisfied'],
    ]);
    for (const r of reviews) {
      expect(r).toMatchObject({ source: 'job', unit: UNIT, system: 'oracle', trial: 1, blind: true });
      expect(r.evidence).toEqual([expect.stringMatching(/^dd_model\.xlsx!/)]);
      expect(r.itemDigest).toBe(itemDigestOf(lock.units[UNIT]!.items[`${r.item.scope}/${r.item.id}`]!));
      expect(r.judgeDecision).toBe(judgeDecision(r.item.scope!, r.item.id));
    }

    // The link opens the criterion on the project page: its checkpoint, the criterion current.
    await goTo(cpAt);
    await page.click('[data-testid=review-open]');
    await page.waitForSelector('[data-testid=checkpoint] li.current');
    expect(await page.locator('[data-testid=checkpoint] li.current').getAttribute('data-item')).toBe(
      queued[cpAt]!.itemId,
    );
    expect(new URL(page.url()).hash).toBe(links[0]);
    expect(recordFiles(results)).toEqual(recordsBefore);
    expect(errors).toEqual([]);
  }, 180_000);
});
