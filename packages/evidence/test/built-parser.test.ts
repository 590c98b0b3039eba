// The parser process as the CLI build bundles it (parser-child.mjs, started without tsx): found
// beside the build's chunks, and extracting every kind of file exactly as the one from the sources.
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IsolatedExtractor } from '../src/index.js';
import { parserChildPath } from '../src/isolate/run-isolated.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const FIX = join(import.meta.dirname, 'fixtures');
const FILES = [
  'report.docx',
  'report.pdf',
  'encrypted.pdf',
  'payroll-openpyxl.xlsx',
  'deck.pptx',
  'data.csv',
  'readme.txt',
  'page.png',
];

/** The live CLI build's folder, built first when stale (the build's lock serialises concurrent builds). */
function cliBuildDir(): string {
  // It prints `built <main.mjs> in …` or `up to date: <main.mjs>`, relative to the checkout.
  const out = execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT, encoding: 'utf8' });
  const main = /(?:built |up to date: )(\S+main\.mjs)/.exec(out)?.[1];
  if (!main) throw new Error(`scripts/build-cli.mjs named no build: ${out}`);
  return dirname(join(ROOT, main));
}

describe('the built parser process', () => {
  it('is what a module of the build starts, and the sources keep their own', () => {
    const dir = cliBuildDir();
    expect(parserChildPath(dir)).toBe(join(dir, 'parser-child.mjs'));
    expect(parserChildPath(join(ROOT, 'packages/evidence/src/isolate'))).toMatch(/child-boot\.mjs$/);
  }, 120_000);

  it('extracts every format as the source parser does', async () => {
    const built = new IsolatedExtractor({}, parserChildPath(cliBuildDir()));
    const source = new IsolatedExtractor({}, parserChildPath(join(ROOT, 'packages/evidence/src/isolate')));
    try {
      for (const name of FILES) {
        const fromBuild = await built.extract(join(FIX, name), name);
        expect(fromBuild.notes.join(' '), name).not.toMatch(/died|did not finish/);
        expect(fromBuild, name).toEqual(await source.extract(join(FIX, name), name));
      }
      // Without tsx it starts light: well under the source parser's ~120 MB.
      expect((await built.stats())?.maxRssMb).toBeLessThan((await source.stats())?.maxRssMb ?? 0);
    } finally {
      built.close();
      source.close();
    }
  }, 120_000);
});
