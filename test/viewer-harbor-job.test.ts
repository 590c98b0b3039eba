// `assay view` over a Harbor job folder (test/fixtures/harbor-job/job, written by Harbor 0.25.0's own models),
// end to end: the real CLI serves it and headless Chromium reads the overview's trials and a trial page (its
// rewards, the exception it raised, timings, tokens and cost, the ATIF trajectory's steps; a multi-step trial's
// steps one by one; a trial's trial.log). No Temporal server
// and no container: the viewer reads the folder only.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type ViewerBrowser } from '../packages/viewer/scripts/launch-chromium.js';
import { startViewerCli, type RunningViewer } from './support/e2e.js';

const JOB = path.resolve(import.meta.dirname, 'fixtures/harbor-job/job');
let browser: ViewerBrowser;
let viewer: RunningViewer;

beforeAll(async () => {
  browser = await launchChromium();
  // `view` talks to no Temporal server; the address is never dialled.
  viewer = await startViewerCli([JOB], '127.0.0.1:1');
}, 180_000);

afterAll(async () => {
  await browser?.close();
  expect(await viewer?.stop()).toBe(0);
});

describe('assay view over a Harbor job folder', () => {
  it('lists every trial of the job, the one that raised among them', async () => {
    const { page, errors } = await browser.newPage();
    await page.goto(viewer.url);
    const rows = page.locator('[data-testid=trials] tbody tr');
    await expect.poll(() => rows.count(), { timeout: 60_000 }).toBe(36);
    expect(await page.locator('[data-testid=trials]').textContent()).toContain('agent-failed');
    expect(errors).toEqual([]);
  });

  it('shows a trial page with its exception, timings, tokens and cost and the ATIF steps', async () => {
    const { page, errors } = await browser.newPage();
    await page.goto(`${viewer.url}#/trial/0/codex__gpt-5/fix-bug/3`);
    const harbor = page.locator('[data-testid=harbor-trial]');
    await harbor.waitFor({ timeout: 60_000 });
    expect(await page.locator('[data-testid=harbor-exception]').textContent()).toContain(
      'NonZeroAgentExitCodeError: Agent command exited with code 1',
    );
    expect(await harbor.locator('.harbor-timings').textContent()).toContain('agent execution');
    expect(await page.locator('dl.facts').textContent()).toContain('cost 0.005274');
    const transcript = page.locator('[data-testid=transcript]');
    expect(await transcript.locator('summary').textContent()).toContain(
      'ATIF trajectory (agent/trajectory.json) (3 steps',
    );
    expect(await transcript.textContent()).toContain('bash {"command":"ls /app"}');
    expect(errors).toEqual([]);
  });

  it('shows the rewards of a multi-key reward.json on a trial page', async () => {
    const { page, errors } = await browser.newPage();
    await page.goto(`${viewer.url}#/trial/0/claude-code__claude-sonnet-4-5/parse-csv/1`);
    await page.locator('[data-testid=harbor-trial]').waitFor({ timeout: 60_000 });
    const text = await page.locator('main.trial').textContent();
    expect(text).toContain('correctness');
    expect(text).toContain('performance');
    expect(errors).toEqual([]);
  });

  it('shows a multi-step trial step by step, each step with its trajectory, and its trial.log', async () => {
    const { page, errors } = await browser.newPage();
    await page.goto(`${viewer.url}#/trial/0/claude-code__gpt-5/fix-bug/1`);
    await page.locator('[data-testid=harbor-trial]').waitFor({ timeout: 60_000 });
    const steps = page.locator('section.steps');
    expect(await steps.locator('h2').textContent()).toContain('2 of 2 ran; trial reward: final');
    expect(await steps.locator('tbody tr').allTextContents()).toEqual([
      expect.stringContaining('reproduce100'),
      expect.stringContaining('fix0'),
    ]);
    const perStep = page.locator('[data-testid=harbor-step]');
    expect(await perStep.count()).toBe(2);
    expect(await perStep.nth(1).locator('[data-testid=transcript] summary').textContent()).toContain(
      'ATIF trajectory (steps/fix/agent/trajectory.json) (3 steps',
    );
    expect(await perStep.nth(1).textContent()).toContain('Done: fix-bug (fix) is solved.');
    const log = page.locator('[data-testid=harbor-log]');
    expect(await log.locator('summary').textContent()).toContain('trial.log');
    await log.locator('summary').click();
    expect(await log.locator('pre').textContent()).toContain('INFO Starting trial fix-bug__');
    expect(errors).toEqual([]);
  });
});
