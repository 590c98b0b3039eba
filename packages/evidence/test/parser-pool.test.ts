// The warm parser pool: real parser processes, bounded, reused, replaced after a death or past the
// recycle budget, and a death still a note on the file it happened on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { buildSubmissionView, createExtractionCache, defaultParserPoolSize, ParserPool } from '../src/index.js';

const FIX = join(import.meta.dirname, 'fixtures');
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'assay-pool-'));
  await copyFile(join(FIX, 'report.docx'), join(root, 'report.docx'));
  await copyFile(join(FIX, 'data.csv'), join(root, 'data.csv'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('ParserPool', () => {
  it('sizes itself from memory and cores, at least one', () => {
    const GiB = 1024 ** 3;
    expect(defaultParserPoolSize(64 * GiB, 2)).toBe(2);
    expect(defaultParserPoolSize(64 * GiB, 16)).toBe(16);
    expect(defaultParserPoolSize(2 * GiB, 16)).toBe(1);
    expect(defaultParserPoolSize(0.5 * GiB, 4)).toBe(1);
  });

  it('serves concurrent views with at most `size` parsers, reusing warm processes', async () => {
    const pool = new ParserPool({ size: 2 });
    try {
      await pool.warm();
      let busy = 0;
      let most = 0;
      const views = await Promise.all(
        Array.from({ length: 5 }, () =>
          pool.use(async (ex) => {
            most = Math.max(most, ++busy);
            try {
              return await buildSubmissionView(root, { extractor: ex });
            } finally {
              busy--;
            }
          }),
        ),
      );
      expect(most).toBe(2);
      for (const v of views) expect(v.files.map((f) => f.format)).toEqual(['csv', 'docx']);
      expect(pool.recycled).toBe(0);
    } finally {
      pool.close();
    }
  }, 60_000);

  it('takes a member on demand: a view with nothing to parse never waits for one', async () => {
    const pool = new ParserPool({ size: 1 });
    const cache = createExtractionCache({ maxMemoryBytes: 8 * 1024 * 1024 });
    const empty = join(root, 'empty');
    await mkdir(empty, { recursive: true });
    try {
      // Parsed once, so the cache holds both files.
      const parsed = await pool.useOnDemand((ex) => buildSubmissionView(root, { extractor: ex, cache }));
      let hand: () => void = () => undefined;
      const held = pool.use(() => new Promise<void>((r) => (hand = r)));
      // The only member is busy: the empty and the cached views are built anyway.
      const none = await pool.useOnDemand((ex) => buildSubmissionView(empty, { extractor: ex, cache }));
      const cached = await pool.useOnDemand((ex) => buildSubmissionView(root, { extractor: ex, cache }));
      expect(none.files).toEqual([]);
      expect(cached.files).toEqual(parsed.files);
      // One that must parse waits for the member, and gets it once it is handed back.
      let done = false;
      const fresh = pool
        .useOnDemand((ex) => buildSubmissionView(root, { extractor: ex }))
        .then((v) => ((done = true), v));
      await new Promise((r) => setTimeout(r, 200));
      expect(done).toBe(false);
      hand();
      await held;
      expect((await fresh).files.map((f) => f.format)).toEqual(['csv', 'docx']);
    } finally {
      pool.close();
    }
  }, 60_000);

  it('stays usable after close (its processes restart on next use)', async () => {
    const pool = new ParserPool({ size: 1 });
    try {
      await pool.warm();
      pool.close();
      const view = await pool.use(async (ex) => {
        expect(ex.running).toBe(false);
        return buildSubmissionView(root, { extractor: ex });
      });
      expect(view.files.map((f) => f.format)).toEqual(['csv', 'docx']);
    } finally {
      pool.close();
    }
  }, 60_000);

  it('replaces a member past its recycle budget, and the next view still builds', async () => {
    const pool = new ParserPool({ size: 1, recycleRssMb: 1 });
    try {
      const first = await pool.use((ex) => buildSubmissionView(root, { extractor: ex }));
      expect(pool.recycled).toBe(1);
      const second = await pool.use(async (ex) => {
        expect(ex.running).toBe(false);
        return buildSubmissionView(root, { extractor: ex });
      });
      expect(second.files).toEqual(first.files);
    } finally {
      pool.close();
    }
  }, 60_000);

  it('keeps a killed parser as a note on its file; the member works again on its next use', async () => {
    const pool = new ParserPool({ size: 1, limits: { perFileTimeoutMs: 1 } });
    try {
      const hung = await pool.use((ex) => buildSubmissionView(root, { extractor: ex }));
      expect(
        hung.files.every((f) => f.evidence === null && f.notes.some((n) => /did not finish within 1 ms|died/.test(n))),
      ).toBe(true);
      const ok = await pool.use((ex) => ex.extract(join(root, 'data.csv'), 'data.csv', {}));
      // The 1 ms limit may kill this one too: what matters is an answer, never a rejection.
      expect(ok.detection).toBeDefined();
    } finally {
      pool.close();
    }
  }, 60_000);
});
