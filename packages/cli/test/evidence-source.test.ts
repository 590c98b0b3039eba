// The judge's page images: rendered once per file content (real pdftoppm), whichever submission or
// judge setup asks, and listed in the page folder so a later process reuses it.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createExtractionCache, ParserPool } from '@assay/evidence';
import { createEvidenceSource, pageRenderCount } from '../src/worker/evidence-source.js';
import { buildPooledView, createEvidenceTools } from '../src/worker/evidence-tools.js';

const PDF = path.resolve(import.meta.dirname, '../../evidence/test/fixtures/report.pdf');
const root = mkdtempSync(path.join(tmpdir(), 'assay-evidence-source-'));
const pool = new ParserPool({ size: 1 });

afterAll(() => {
  pool.close();
  rmSync(root, { recursive: true, force: true });
});

function submission(name: string): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  copyFileSync(PDF, path.join(dir, 'report.pdf'));
  return dir;
}

describe('judge evidence source', () => {
  it('renders a file content once for every submission and setup that views it', async () => {
    const pagesDir = path.join(root, 'pages');
    const before = pageRenderCount();
    const images: Uint8Array[] = [];
    for (const name of ['trial-1', 'trial-2', 'trial-3']) {
      const source = createEvidenceSource(await buildPooledView(pool, submission(name)), {
        pagesDir,
        contextVersion: 'test',
      });
      const png = await source.viewPageImage('report.pdf', 1);
      expect(png, name).not.toBeNull();
      images.push(png as Uint8Array);
    }
    expect(pageRenderCount() - before).toBe(1);
    expect(Buffer.from(images[2] ?? []).equals(Buffer.from(images[0] ?? []))).toBe(true);
    const [folder] = readdirSync(pagesDir);
    const list = JSON.parse(readFileSync(path.join(pagesDir, folder ?? '', 'pages.json'), 'utf8')) as string[];
    expect(list[0]).toBe('page-1.png');
    expect(list.every((p) => existsSync(path.join(pagesDir, folder ?? '', p)))).toBe(true);
  }, 120_000);

  it('builds the checks view and the judge view of one submission with one parse', async () => {
    const cache = createExtractionCache();
    const dir = submission('trial-4');
    await createEvidenceTools(pool, cache).buildView(dir);
    await buildPooledView(pool, dir, cache);
    expect(cache.stats).toEqual({ parsed: 1, reused: 1 });
  }, 60_000);
});
