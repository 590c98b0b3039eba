// The viewer's route table over a results folder with one trial record, one project record (a checkpoint and a
// final package) and a file's pre-rendered pages: each API route answers with its status and shape, unknown
// sources and records are 404 naming them, every write under /api/ passes the same-origin guard first, the
// bundle is served by name with its type, and any other path (an unknown /api/ one too) is the page.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRecordSchema, trialRecordSchema } from '@assay/core';
import { createFsResultsStore, PAGES_PREFIX, projectRecordKey, trialRecordKey } from '@assay/results';
import { makeProjectRecord, makeTrialRecord } from '../../results/test/make-records.js';
import { createViewerApp } from '../src/create-viewer-app.js';
import { resolveSources } from '../src/resolve-sources.js';

const PORT = 4323;
const own = { host: `127.0.0.1:${PORT}`, origin: `http://127.0.0.1:${PORT}` };
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
const PAGE_SHA = 'c'.repeat(64);
let tmp: string;
let app: ReturnType<typeof createViewerApp>;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'assay-viewer-routes-'));
  const dir = path.join(tmp, 'results');
  const client = path.join(tmp, 'client');
  mkdirSync(client);
  writeFileSync(path.join(client, 'index.html'), '<div id="app"></div>');
  writeFileSync(path.join(client, 'app.js'), 'export {};');
  writeFileSync(path.join(client, 'notes.bin'), 'x');
  const store = createFsResultsStore(dir);
  const report = await store.putBytes(new TextEncoder().encode('# Report\n\nThe total is 5.\n'));
  const before = await store.putBytes(new TextEncoder().encode('# Notes\n\nFirst draft.\n'));
  const after = await store.putBytes(new TextEncoder().encode('# Notes\n\nSecond draft.\n'));
  const trial = makeTrialRecord('s', 't1', 1);
  const deliverables = [{ path: 'report.md', sha256: report.sha256, size: report.size, detectedFormat: null }];
  await store.putJson(trialRecordKey('s', 't1', 1), trialRecordSchema.parse({ ...trial, deliverables }));
  const base = makeProjectRecord('s', 'p1', 1);
  const snapshot = (sha256: string, size: number) => ({
    manifestSha256: 'b'.repeat(64),
    files: [{ path: 'outputs/notes.md', sha256, size }],
  });
  const project = projectRecordSchema.parse({
    ...base,
    checkpoints: [
      { ...base.checkpoints[0]!, snapshot: snapshot(before.sha256, before.size) },
      { ...base.checkpoints[0]!, subtaskId: 's2', snapshot: snapshot(after.sha256, after.size) },
    ],
    final: { ...base.final, packageFiles: [{ path: 'notes.md', sha256: after.sha256, size: after.size }] },
  });
  await store.putJson(projectRecordKey('s', 'p1', 1), project);
  const pages = path.join(dir, PAGES_PREFIX, PAGE_SHA);
  mkdirSync(pages, { recursive: true });
  writeFileSync(path.join(pages, 'page-1.png'), PNG);
  writeFileSync(path.join(pages, 'page-2.png'), PNG);
  app = createViewerApp(await resolveSources([dir]), client, { port: () => PORT, reviewer: 'ana' });
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const get = async (p: string) => {
  const res = await app.request(p);
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, type, body: type.includes('json') ? ((await res.json()) as unknown) : await res.text() };
};
const failure = async (p: string) => {
  const { status, body } = await get(p);
  return [status, (body as { error: string }).error];
};

describe("the viewer's routes", () => {
  it('answers the overview, config, revision, agreement and comparison', async () => {
    expect(await get('/api/config')).toMatchObject({ status: 200, body: { reviewer: 'ana' } });
    expect(await get('/api/overview')).toMatchObject({ status: 200, type: expect.stringMatching(/json/) });
    expect(await get('/api/revision')).toMatchObject({ status: 200, body: { revision: expect.any(String) } });
    expect((await get('/api/agreement/0')).status).toBe(200);
    expect(await get('/api/compare/0/0')).toMatchObject({ status: 200, body: { sources: { a: '0', b: '0' } } });
    expect(await failure('/api/compare/0/9')).toEqual([404, 'no results source "9"']);
  });

  it('answers a trial and its deliverables, and 404 for an unknown source or trial', async () => {
    const trial = await get('/api/trial/0/s/t1/1');
    expect(trial.status).toBe(200);
    expect(JSON.stringify(trial.body)).toContain('The total is 5.');
    const deliverables = await get('/api/review-deliverables/0/s/t1/1');
    expect(deliverables.status).toBe(200);
    expect(JSON.stringify(deliverables.body)).toContain('The total is 5.');
    expect(JSON.stringify(deliverables.body)).not.toContain('"verdicts"');
    expect(await failure('/api/trial/9/s/t1/1')).toEqual([404, 'no results source "9"']);
    expect(await failure('/api/trial/0/s/t1/2')).toEqual([404, expect.stringMatching(/^no trial record at /)]);
    expect(await failure('/api/review-deliverables/0/s/t1/2')).toEqual([
      404,
      expect.stringMatching(/^no trial record at /),
    ]);
  });

  it("answers a project, a file's diff between checkpoints, and a checkpoint's or the package's outputs", async () => {
    expect(await get('/api/project/0/s/p1/1')).toMatchObject({ status: 200, body: { source: '0' } });
    expect(await failure('/api/project/0/s/p9/1')).toEqual([404, expect.stringMatching(/^no project record at /)]);
    const diff = await get('/api/project/0/s/p1/1/diff?checkpoint=1&path=outputs/notes.md');
    expect(diff).toMatchObject({ status: 200, body: { path: 'outputs/notes.md', counts: { changed: 1 } } });
    const first = await get('/api/project/0/s/p1/1/diff?checkpoint=0&path=outputs/notes.md');
    expect(first.body).toMatchObject({ counts: { changed: 0, removed: 0 } });
    expect((first.body as { counts: { added: number } }).counts.added).toBeGreaterThan(0);
    for (const [which, text] of [
      ['0', 'First draft.'],
      ['1', 'Second draft.'],
      ['final', 'Second draft.'],
    ]) {
      const view = await get(`/api/project/0/s/p1/1/view/${which}`);
      expect(view.status, which).toBe(200);
      expect(JSON.stringify(view.body), which).toContain(text);
    }
    expect(await failure('/api/project/0/s/p1/1/view/7')).toEqual([404, 'no checkpoint 7 in this project record']);
  });

  it("counts a file's pages and serves each as PNG; a bad hash or missing page is 404", async () => {
    expect(await get(`/api/pages/0/${PAGE_SHA}`)).toMatchObject({ status: 200, body: { pages: 2 } });
    const page = await app.request(`/api/pages/0/${PAGE_SHA}/2`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('image/png');
    expect(page.headers.get('cache-control')).toBe('max-age=86400');
    expect(new Uint8Array(await page.arrayBuffer())).toEqual(PNG);
    expect(await failure(`/api/pages/0/${PAGE_SHA}/3`)).toEqual([404, expect.stringMatching(/^page 3 of c{12}…/)]);
    expect(await failure('/api/pages/0/not-a-hash')).toEqual([404, expect.stringMatching(/^no deliverable/)]);
    expect(await failure('/api/pages/0/not-a-hash/1')).toEqual([404, expect.stringMatching(/^no deliverable/)]);
  });

  it('guards every write under /api/, not only the review routes', async () => {
    const post = (p: string, headers: Record<string, string>) => app.request(p, { method: 'POST', headers });
    expect((await post('/api/overview', { host: own.host, origin: 'http://evil.example' })).status).toBe(403);
    expect((await post('/api/config', { host: own.host })).status).toBe(403);
    expect((await post('/api/overview', own)).status).toBe(404);
  });

  it('serves the bundle by name with its type, and the page for every other path', async () => {
    expect(await get('/assets/app.js')).toMatchObject({ status: 200, type: 'text/javascript', body: 'export {};' });
    expect(await get('/assets/notes.bin')).toMatchObject({ status: 200, type: 'application/octet-stream' });
    expect((await get('/assets/missing.js')).status).toBe(404);
    for (const p of ['/', '/anything/deeper', '/api/unknown']) {
      expect(await get(p), p).toMatchObject({ status: 200, type: expect.stringMatching(/^text\/html/) });
      expect((await get(p)).body, p).toBe('<div id="app"></div>');
    }
  });
});

describe('the review routes refuse', () => {
  const query = (q: string) => failure(`/api/review-queue/0?${q}`);
  const post = async (body: string) => {
    const res = await app.request('/api/reviews/0', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...own },
      body,
    });
    return [res.status, ((await res.json()) as { error: string }).error];
  };

  it('a bad queue query, naming the parameter, and an unknown source', async () => {
    expect(await query('reviewer=../x')).toEqual([400, expect.stringMatching(/^reviewer: must match /)]);
    expect(await query('mode=all')).toEqual([400, 'mode: must be one of unjudged, sample']);
    expect(await query('size=0')).toEqual([400, 'size: must be a positive integer']);
    expect(await query('seed=1.5')).toEqual([400, 'seed: must be an integer']);
    expect(await failure('/api/review-queue/9?reviewer=../x')).toEqual([404, 'no results source "9"']);
    expect(await get('/api/review-queue/0?reviewer=ana')).toMatchObject({
      status: 200,
      body: { source: '0', reviewer: 'ana', mode: 'unjudged', size: 20, seed: 1, blind: false },
    });
  });

  it('a body that is not JSON, and an item whose content is not known (no job lock, no benchmark)', async () => {
    expect(await post('{')).toEqual([400, 'body: must be JSON']);
    const review = { reviewer: 'ana', unit: 'tasks/t1', system: 's', trial: 1, itemId: 'i1', decision: 'satisfied' };
    expect(await post(JSON.stringify(review))).toEqual([
      400,
      'itemId: the content of item i1 is not known (no job lock and the benchmark is not readable): it cannot be reviewed',
    ]);
  });
});
