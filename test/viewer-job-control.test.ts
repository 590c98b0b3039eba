// The viewer shows a job's control state from job-control.json (written here by the real activity,
// as the job workflow writes it): a banner while paused by the budget with its reason, since when and
// the limited endpoint's lanes, refreshed in place when the job is cancelled; and a project run's
// restarts (`pause --now`) and host moves. Headless Chromium over the viewer started in-process.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobActivities } from '@assay/activities';
import { JOB_CONTROL_SCHEMA, projectRecordSchema, type JobControlFile } from '@assay/core';
import { jobKey, openResultsStore, writeProjectRecord } from '@assay/results';
import { launchChromium, type ViewerBrowser } from '../packages/viewer/scripts/launch-chromium.js';
import { startViewer, type RunningViewer } from '../packages/viewer/src/index.js';

let dir: string;
let viewer: RunningViewer;
let browser: ViewerBrowser;
const acts = createJobActivities();

const PAUSED: JobControlFile = {
  schema: JOB_CONTROL_SCHEMA,
  jobId: 'ctl-view',
  state: 'paused',
  reason: 'budget reached (all): usd 0.19 of 0.15',
  pausedBy: 'budget',
  since: '2026-12-01T20:15:00.000Z',
  updatedAt: '2026-12-01T20:15:00.000Z',
  concurrency: 8,
  endpoints: [{ endpoint: 'http://127.0.0.1:18080', limit: 2, concurrency: 8, throttled: 40, recentThrottled: 37 }],
  spend: { usd: 0.19, tokens: 41000, agentHours: 0.05, unpricedTokens: 0 },
  projected: { usd: 0.57, tokens: 123000, agentHours: 0.15, unpricedTokens: 0 },
  spendBy: {
    agents: { usd: 0.12, tokens: 30000, agentHours: 0.05, unpricedTokens: 0 },
    judges: { usd: 0.07, tokens: 11000, agentHours: 0, unpricedTokens: 0 },
  },
  budget: { usd: 0.15, covers: 'all' },
};

function projectRecord() {
  const at = '2026-12-01T20:10:00.000Z';
  return projectRecordSchema.parse({
    schema: 'assay.project-record/v1',
    jobId: 'ctl-view',
    benchmark: { id: 'sample', version: '1' },
    system: { id: 'sys', harness: 'scripted', model: null },
    project: { id: 'proj', subtasks: 2 },
    trial: 1,
    checkpoints: [],
    process: { score: null, passRate: null },
    final: {
      verdicts: [],
      score: null,
      raw: null,
      gateTriggered: false,
      gates: [],
      unjudged: [],
      targets: [],
      dimensions: [],
      packageFiles: [],
    },
    resources: { agentSeconds: 0, inputTokens: null, outputTokens: null, totalTokens: null },
    injectedFeedback: [],
    restarts: [
      {
        subtaskId: 't02-memo',
        reason: 'stopped by assay pause --now',
        at,
        host: 'host-a',
        restoredFrom: 't01-model',
        session: 'restarted',
      },
    ],
    moves: [
      {
        from: 'host-a',
        to: 'host-b',
        reason: 'host host-a was gone',
        at,
        restoredFrom: 't01-model',
        session: 'restarted',
      },
    ],
    recordedAt: at,
  });
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'assay-view-control-'));
  const store = openResultsStore(dir);
  await store.putJson(jobKey(), { spec: { id: 'ctl-view' } });
  await writeProjectRecord(store, projectRecord());
  await acts.writeJobControl({ resultsDir: dir, control: PAUSED });
  viewer = await startViewer({ resultsDirs: [dir], clientOutDir: path.join(dir, '.client') });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await viewer?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('assay view: job control', () => {
  it("shows a paused job's banner with reason, since, lanes and spend; refreshes when it is cancelled", async () => {
    const { page, errors } = await browser.newPage();
    await page.goto(viewer.url);
    const banner = page.locator('[data-testid=job-control]');
    await banner.waitFor({ timeout: 60_000 });
    expect(await banner.getAttribute('data-state')).toBe('paused');
    const text = (await banner.textContent()) ?? '';
    expect(text).toContain('Paused — budget reached (all): usd 0.19 of 0.15 · since ');
    expect(text).toContain('by the budget');
    expect(text).toContain('concurrency 8');
    expect(await page.locator('[data-testid=lanes]').textContent()).toBe(
      'back-pressure: 127.0.0.1:18080 2/8 lanes, 37 throttled in the last 5 min',
    );
    expect(await page.locator('[data-testid=spend]').textContent()).toContain('usd 0.19 of 0.15');
    // The judges' bill beside the agents'.
    expect(await page.locator('[data-testid=spend-by]').textContent()).toBe('agents usd 0.12 · judges usd 0.07');

    // The job is cancelled: the page, never reloaded, shows it within a poll or two.
    const cancelled: JobControlFile = {
      ...PAUSED,
      state: 'cancelled',
      reason: 'cancelled by assay cancel (grace 60 s)',
      pausedBy: null,
      since: '2026-12-01T20:20:00.000Z',
      updatedAt: '2026-12-01T20:20:00.000Z',
      endpoints: [],
    };
    await acts.writeJobControl({ resultsDir: dir, control: cancelled });
    await expect.poll(() => banner.getAttribute('data-state'), { timeout: 20_000 }).toBe('cancelled');
    expect(await banner.textContent()).toContain('Cancelled — cancelled by assay cancel (grace 60 s)');
    expect(await page.locator('[data-testid=lanes]').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('refuses to write a control state of the wrong shape', async () => {
    const bad = { ...PAUSED, state: 'sleeping' } as unknown as JobControlFile;
    await expect(acts.writeJobControl({ resultsDir: dir, control: bad })).rejects.toThrow(/state/);
  });

  it("lists a project run's restarts and host moves", async () => {
    const { page, errors } = await browser.newPage();
    await page.goto(`${viewer.url}#/project/0/sys/proj/1`);
    const restarts = page.locator('[data-testid=restarts] li');
    await restarts.first().waitFor({ timeout: 60_000 });
    expect(await restarts.count()).toBe(1);
    const restart = (await restarts.first().textContent()) ?? '';
    expect(restart).toContain('t02-memo: stopped by assay pause --now · restored from checkpoint t01-model on host-a');
    const move = (await page.locator('[data-testid=moves] li').first().textContent()) ?? '';
    expect(move).toContain('host-a → host-b: host host-a was gone · restored from checkpoint t01-model');
    expect(errors).toEqual([]);
  });
});
