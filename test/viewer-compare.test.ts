// `assay compare` in the viewer: two jobs (the same system id on two harnesses) opened together, compared
// from the overview's link in headless Chromium: what differs, the paired difference, the flipped items,
// and each flip linked to its trial at that item.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ViewerBrowser } from '../packages/viewer/scripts/launch-chromium.js';
import { useViewerJobs } from './support/viewer-jobs.js';

let browser: ViewerBrowser;
let url: string;

const units = { trials: 1, tasks: ['fin-term-loan-schedule', 'edu-fractions-lesson'], projects: ['fdd-hengtai'] };
const stale = [{ id: 'agent', harness: 'scripted', settings: { agent: 'correction-not-applied' } }];
const jobs = useViewerJobs(
  [
    { id: 'view-cmp-a', ...units, systems: [{ id: 'agent', harness: 'oracle' }] },
    { id: 'view-cmp-b', ...units, systems: stale },
  ],
  // One job by its file, the other by its results folder.
  { viewArgs: ([a], [, b]) => [a!, b!] },
);
beforeAll(() => {
  ({ browser, url } = jobs());
});

describe('compare in the viewer', () => {
  it('opens from the overview and shows provenance, the paired difference and linked flips', async () => {
    const { page, errors } = await browser.newPage();
    await page.goto(url);
    await page.click('[data-testid=compare-link]');
    await page.waitForSelector('[data-testid=flips] li');
    expect(page.url()).toContain('#/compare/0/1');
    expect(await page.locator('[data-testid=provenance]').textContent()).toContain(
      'system agent: harness: oracle → scripted',
    );
    const row = page.locator('[data-testid=compare-systems] tr.system-row').first();
    expect(await row.textContent()).toMatch(/agent.*2 tasks/);
    // How far the item verdicts agree: checks decide the same items on both sides, some of them differently.
    const agreement = await page.locator('[data-testid=compare-agreement] tbody tr').allTextContents();
    expect(agreement).toEqual([expect.stringMatching(/^agent[1-9]\d*\d+\.\d/)]);
    // The project apart: final and process rows, and the criteria that flipped.
    const projectRows = page.locator('[data-testid=compare-projects] tbody tr');
    // Checks-only leaves criteria unjudged: the projects are compared on decided criteria, and the page says so.
    expect(await page.locator('[data-testid=compare-projects] .note').textContent()).toContain('decided criteria only');
    expect(await projectRows.allTextContents()).toEqual([
      expect.stringMatching(/^agentfinal1\d+\.\d/),
      expect.stringMatching(/^agentprocess1\d+\.\d/),
    ]);
    expect(await page.locator('[data-testid=criterion-flips] > li').count()).toBeGreaterThan(0);
    const flips = page.locator('[data-testid=flips] > ul > li');
    expect(await flips.count()).toBeGreaterThan(0);
    const first = flips.first();
    const item = await first.getAttribute('data-item');
    expect(await first.textContent()).toMatch(/fin-term-loan-schedule #1 .*satisfied.*not-satisfied/);
    // B's side opens the stale agent's trial at that item.
    await first.locator('a', { hasText: 'B' }).click();
    await page.waitForSelector('[data-testid=items] li.current');
    expect(page.url()).toContain(`#/trial/1/agent/fin-term-loan-schedule/1/item/${item}`);
    expect(await page.locator('li.current').getAttribute('data-item')).toBe(item);
    // The trial says what produced it, read from its record.
    const produced = await page.locator('[data-testid=provenance]').textContent();
    expect(produced).toMatch(/^task version [0-9a-f]{8} · assay \d+\.\d+\.\d+ \([0-9a-f]{12}.*\) · image sha256:/);
    expect(produced).toContain('network none');
    expect(produced).toMatch(/judge checks-only, setup [0-9a-f]{8}$/);
    expect(errors).toEqual([]);
  });
});
