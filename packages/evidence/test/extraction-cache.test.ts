// The extraction cache: a file parsed once (real parser processes) is served to later views of the
// same content from memory or from the cache folder, gives the same evidence, and a changed file,
// another name or another budget is parsed again.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSubmissionView, createExtractionCache, ParserPool, type ExtractionCache } from '../src/index.js';

const FIX = join(import.meta.dirname, 'fixtures');
let root: string;
const pool = new ParserPool({ size: 1 });

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'assay-extraction-cache-'));
  for (const sub of ['a', 'b']) {
    await mkdir(join(root, sub));
    await copyFile(join(FIX, 'report.docx'), join(root, sub, 'report.docx'));
    await copyFile(join(FIX, 'capex-flawed.xlsx'), join(root, sub, 'capex.xlsx'));
  }
  // Same name, other content: must not be served the other's evidence.
  await writeFile(join(root, 'a', 'notes.md'), '# Notes\n\nfirst version\n');
  await writeFile(join(root, 'b', 'notes.md'), '# Notes\n\nsecond version\n');
});
afterAll(async () => {
  pool.close();
  await rm(root, { recursive: true, force: true });
});

/** A view of `dir` through the pool, counting the files the parser process was asked to extract. */
async function countedView(dir: string, cache: ExtractionCache, limits?: { maxEvidenceBytes: number }) {
  return pool.use(async (extractor) => {
    const spy = vi.spyOn(extractor, 'extractMeasured');
    try {
      const view = await buildSubmissionView(dir, { extractor, cache, ...(limits ? { limits } : {}) });
      return { view, parses: spy.mock.calls.map((c) => c[1]) };
    } finally {
      spy.mockRestore();
    }
  });
}

describe('extraction cache', () => {
  it('parses each file content once across submissions, with the same evidence as a fresh parse', async () => {
    const cache = createExtractionCache();
    const first = await countedView(join(root, 'a'), cache);
    expect(first.parses.sort()).toEqual(['capex.xlsx', 'notes.md', 'report.docx']);
    const second = await countedView(join(root, 'b'), cache);
    expect(second.parses).toEqual(['notes.md']);
    expect(cache.stats).toEqual({ parsed: 4, reused: 2 });
    const uncached = await pool.use((extractor) => buildSubmissionView(join(root, 'b'), { extractor }));
    expect(second.view.files).toEqual(uncached.files);
    const notes = second.view.files.find((f) => f.path === 'notes.md');
    expect(JSON.stringify(notes?.evidence)).toContain('second version');
  }, 60_000);

  it('serves a later process from the cache folder', async () => {
    const dir = join(root, 'cache');
    await countedView(join(root, 'a'), createExtractionCache({ dir }));
    const later = createExtractionCache({ dir });
    const again = await countedView(join(root, 'a'), later);
    expect(again.parses).toEqual([]);
    expect(later.stats).toEqual({ parsed: 0, reused: 3 });
  }, 60_000);

  it('parses again under another evidence budget', async () => {
    const cache = createExtractionCache();
    await countedView(join(root, 'a'), cache);
    const tighter = await countedView(join(root, 'a'), cache, { maxEvidenceBytes: 40_000 });
    expect(tighter.parses.length).toBeGreaterThan(0);
  }, 60_000);
});
