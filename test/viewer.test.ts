// `assay view` end to end: a small job (2 systems x 2 tasks with xlsx / pptx deliverables, plus
// the sample project, 1 trial) runs on a real Temporal server and real containers while the real
// CLI serves the viewer, and headless Chromium drives its pages (no network beyond 127.0.0.1).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProjectRecord, TrialRecord } from '@assay/core';
import { launchChromium, type ViewerBrowser } from '../packages/viewer/scripts/launch-chromium.js';
import { readProjects, readTrials } from './support/records.js';
import {
  collectOutput,
  ensureAgentImage,
  spawnCli,
  startTestServer,
  startViewerCli,
  waitFor,
  writeJob,
  type RunningViewer,
  type TestServer,
} from './support/e2e.js';

let server: TestServer;
let browser: ViewerBrowser;
let viewer: RunningViewer;
let url: string;
let trials: TrialRecord[];
let projects: ProjectRecord[];
type BrowserPage = Awaited<ReturnType<ViewerBrowser['newPage']>>;
type Page = BrowserPage['page'];
let overviewDuringRun: BrowserPage;
let recordsAtLoad: number;

beforeAll(async () => {
  await ensureAgentImage();
  server = await startTestServer();
  browser = await launchChromium();
  const file = writeJob({
    id: 'viewer-e2e',
    trials: 1,
    concurrency: 4,
    tasks: ['fin-term-loan-schedule', 'biz-quarterly-review-deck'],
    projects: ['fdd-hengtai'],
    systems: [
      { id: 'oracle', harness: 'oracle' },
      { id: 'p07', harness: 'scripted', settings: { agent: 'correction-not-applied' } },
    ],
  });
  const results = path.join(path.dirname(file), 'results');
  const run = collectOutput(spawnCli(['run', file], server.address));
  // The viewer starts on the job file while the run is in progress: the overview must fill in.
  await waitFor(() => (existsSync(path.join(results, 'job.json')) ? true : undefined), 'job.json', 300_000);
  viewer = await startViewerCli([file], server.address);
  url = viewer.url;
  overviewDuringRun = await browser.newPage();
  await overviewDuringRun.page.goto(url);
  await overviewDuringRun.page.waitForSelector('[data-testid=status]', { timeout: 60_000 });
  recordsAtLoad = await overviewDuringRun.page
    .locator('[data-testid=trials] tbody tr, [data-testid=projects] tbody tr')
    .count();
  expect(await run.exit, run.text()).toBe(0);
  trials = await readTrials(results);
  projects = await readProjects(results);
}, 900_000);

afterAll(async () => {
  await browser?.close();
  expect(await viewer?.stop()).toBe(0);
  await server?.stop();
});

const trialRows = (page: Page) => page.locator('[data-testid=trials] tbody tr');

describe('assay view', () => {
  it('refreshes the overview as records land, with leaderboards and no console error', async () => {
    const { page, errors } = overviewDuringRun;
    // The project runs (6 subtasks each) were still going when the page loaded.
    expect(recordsAtLoad).toBeLessThan(6);
    // Loaded while trials were running, never reloaded: polling brings every record in.
    await expect.poll(() => trialRows(page).count(), { timeout: 30_000 }).toBe(4);
    await expect.poll(() => page.locator('[data-testid=projects] tbody tr').count(), { timeout: 30_000 }).toBe(2);
    const board = page.locator('[data-testid=leaderboard-decided] tbody tr');
    expect(await board.count()).toBe(2);
    expect(await board.first().textContent()).toContain('oracle');
    await page.waitForSelector('[data-testid=leaderboard-decided] .chart svg');
    // A filter is part of the URL.
    await page.selectOption('select[name=system]', 'p07');
    await expect.poll(() => trialRows(page).count()).toBe(2);
    expect(page.url()).toContain('system=p07');
    expect(errors).toEqual([]);
  });

  it('shows every rubric item of a trial, deep-linked and navigable with j/k', async () => {
    const record = trials.find((t) => t.system.id === 'oracle' && t.task.id === 'fin-term-loan-schedule');
    expect(record).toBeDefined();
    const { page, errors } = await browser.newPage();
    await page.goto(`${url}#/trial/0/oracle/fin-term-loan-schedule/1/item/total-interest`);
    await page.waitForSelector('[data-testid=items] [data-item]');
    const ids = await page.locator('[data-testid=items] > li').evaluateAll((els) => els.map((e) => e.dataset.item));
    expect(ids).toEqual(record?.verdicts.map((v) => v.itemId));
    expect(await page.locator('li.current').getAttribute('data-item')).toBe('total-interest');
    // The item's anchor opened the workbook at the cell, formula beside its cached value.
    const cell = page.locator('.grid td.focus').first();
    await cell.waitFor();
    expect(await cell.getAttribute('data-anchor')).toBe('Summary!B2');
    expect(await cell.textContent()).toContain('=SUM(Schedule!D2:D21)');
    await page.keyboard.press('j');
    const next = record?.verdicts[record.verdicts.findIndex((v) => v.itemId === 'total-interest') + 1]?.itemId;
    await expect.poll(() => page.url()).toContain(`/item/${next}`);
    expect(await page.locator('li.current').getAttribute('data-item')).toBe(next);
    expect(await page.locator('[data-testid=transcript]').textContent()).toContain('debt_schedule.xlsx');
    expect(errors).toEqual([]);
  });

  it('opens the page image an evidence anchor points at', async () => {
    const record = trials.find((t) => t.system.id === 'oracle' && t.task.id === 'biz-quarterly-review-deck');
    const deck = record?.deliverables.find((d) => d.path.endsWith('.pptx'));
    expect(deck).toBeDefined();
    const { page, errors } = await browser.newPage();
    await page.goto(`${url}#/trial/0/oracle/biz-quarterly-review-deck/1`);
    await page.click('[data-item=rotterdam-decision] button.anchor[data-anchor="slide 6"]');
    const img = page.locator('[data-testid=page-image]');
    await img.waitFor({ timeout: 180_000 });
    await expect.poll(() => img.getAttribute('data-page'), { timeout: 30_000 }).toBe('6');
    expect(await img.getAttribute('src')).toContain(`/${deck?.sha256}/6?`);
    await expect
      .poll(() => img.evaluate((e) => (e as unknown as { naturalWidth: number }).naturalWidth > 0), { timeout: 60_000 })
      .toBe(true);
    expect(await page.locator('.slide.focus h4').textContent()).toContain('slide 6');
    expect(errors).toEqual([]);
    // The first view of a slide renders the deck (LibreOffice): minutes on a loaded machine.
  }, 300_000);

  it('shows every checkpoint of a project on its timeline, what changed inside a file, and the final gates', async () => {
    const record = projects.find((p) => p.system.id === 'p07');
    expect(record?.checkpoints.length).toBe(6);
    const { page, errors } = await browser.newPage();
    await page.goto(`${url}#/project/0/p07/fdd-hengtai/1/checkpoint/2`);
    await page.waitForSelector('[data-testid=timeline] [data-checkpoint]');
    const shown = await page.locator('[data-checkpoint]').evaluateAll((els) => els.map((e) => e.dataset.checkpoint));
    expect(shown).toEqual(record?.checkpoints.map((c) => c.subtaskId));
    await page.waitForSelector('[data-testid=timeline] .chart svg');
    // P07: the correction went into a change log; the capex cell itself was left as it was.
    await page.click('[data-testid=snapshot-diff] li[data-diff=changed] button:has-text("outputs/dd_model.xlsx")');
    const diff = page.locator('[data-testid=file-diff]');
    await diff.waitFor({ timeout: 120_000 });
    expect(await diff.textContent()).toContain("'Change Log'!D2");
    const gate = page.locator('[data-testid=final-criteria] tr[data-item=fatal-stale-capex]');
    expect(await gate.textContent()).toContain('gate');
    expect(await gate.textContent()).toContain('satisfied');
    expect(record?.final.gateTriggered).toBe(true);
    expect(await page.locator('[data-testid=final-package]').textContent()).toContain('gate triggered');
    expect(errors).toEqual([]);
  });
});
