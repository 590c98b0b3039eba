// `assay reproduce`: every value printed in the papers that the published CSVs imply
// must be recomputed to the printed precision (one assertion per value).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatReproduceTable, reproducePublished } from '../src/reproduce-published.js';
import { roundTo } from '../src/numeric.js';
import { DEFAULT_PUBLISHED_DIR, REPO_ROOT, resolvePublishedDir } from '../src/published-data.js';

const rows = reproducePublished();

describe(`reproducing published values from ${resolvePublishedDir()}`, () => {
  it('covers every quantity the issue lists', () => {
    const has = (re: RegExp): number => rows.filter((r) => re.test(r.quantity)).length;
    expect(has(/^Table 5 final-delivery Mean/)).toBe(7);
    expect(has(/^Table 5 process Mean/)).toBe(7);
    expect(has(/^Process–final gap/)).toBe(2);
    expect(has(/below the equal-score line/)).toBe(1);
    expect(has(/^Table 3 Overall avg score/)).toBe(9);
    expect(has(/^Table 3 Overall success rate/)).toBe(9);
    expect(has(/^Table 4 Average row/)).toBe(3);
    expect(has(/^Table 6 Average row/)).toBe(4);
    expect(has(/^Table 6 Max–Min/)).toBe(3);
    expect(has(/^Table 7 General \(All Runs avg\)/)).toBe(2);
  });

  it.each(rows.map((r) => [`${r.benchmark}: ${r.quantity}`, r] as const))('%s', (_name, r) => {
    expect(r.recomputed, r.source).not.toBeNull();
    expect(
      roundTo(r.recomputed as number, r.digits),
      `${r.quantity}: published ${r.published.toFixed(r.digits)}, recomputed ${r.recomputed}`,
    ).toBe(roundTo(r.published, r.digits));
    expect(r.match).toBe(true);
  });

  it('prints a table with a summary line', () => {
    const text = formatReproduceTable(rows);
    expect(text).toContain(`${rows.length} of ${rows.length} published values reproduced at printed precision.`);
    expect(text.split('\n')[0]).toMatch(/benchmark\s+quantity\s+published\s+recomputed\s+rounded\s+match/);
  });

  it('fails loudly when the published folder is missing', () => {
    expect(() => reproducePublished({ publishedDir: '/nonexistent/published' })).toThrow(/ASSAY_PUBLISHED_DIR/);
  });
});

// The tables ship in the repository (analysis/published), so a plain clone reproduces without
// ../shared beside it; ASSAY_PUBLISHED_DIR and --published still point elsewhere.
describe('the published folder', () => {
  const saved = process.env.ASSAY_PUBLISHED_DIR;
  beforeEach(() => {
    delete process.env.ASSAY_PUBLISHED_DIR;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.ASSAY_PUBLISHED_DIR;
    else process.env.ASSAY_PUBLISHED_DIR = saved;
  });
  const csvs = (dir: string): string[] =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.csv'))
      .sort();

  it('is analysis/published inside the repository unless something overrides it', () => {
    expect(DEFAULT_PUBLISHED_DIR).toBe(path.join(REPO_ROOT, 'analysis', 'published'));
    expect(resolvePublishedDir()).toBe(DEFAULT_PUBLISHED_DIR);
    const rel = path.relative(REPO_ROOT, resolvePublishedDir());
    expect(rel.startsWith('..') || path.isAbsolute(rel)).toBe(false);
    expect(existsSync(path.join(REPO_ROOT, 'pnpm-workspace.yaml'))).toBe(true);
  });

  it('reproduces all 68 published values from the repository alone', () => {
    const own = reproducePublished();
    expect(own).toHaveLength(68);
    expect(own.filter((r) => !r.match)).toEqual([]);
    expect(formatReproduceTable(own)).toContain('68 of 68 published values reproduced at printed precision.');
  });

  it('lets ASSAY_PUBLISHED_DIR, then an explicit folder, override it', () => {
    process.env.ASSAY_PUBLISHED_DIR = '/nonexistent/from-env';
    expect(() => resolvePublishedDir()).toThrow(/\/nonexistent\/from-env/);
    expect(resolvePublishedDir(DEFAULT_PUBLISHED_DIR)).toBe(DEFAULT_PUBLISHED_DIR);
    process.env.ASSAY_PUBLISHED_DIR = '';
    expect(resolvePublishedDir()).toBe(DEFAULT_PUBLISHED_DIR);
  });

  it('names the source of every CSV in its README', () => {
    const readme = readFileSync(path.join(DEFAULT_PUBLISHED_DIR, 'README.md'), 'utf8');
    expect(csvs(DEFAULT_PUBLISHED_DIR)).toHaveLength(9);
    for (const f of csvs(DEFAULT_PUBLISHED_DIR)) expect(readme, f).toContain(`| \`${f}\` |`);
  });

  const shared = path.resolve(REPO_ROOT, '../shared/published');
  it.skipIf(!existsSync(shared))('holds the same bytes as ../shared/published (when that exists)', () => {
    expect(csvs(DEFAULT_PUBLISHED_DIR)).toEqual(csvs(shared));
    for (const f of csvs(shared))
      expect(readFileSync(path.join(DEFAULT_PUBLISHED_DIR, f)).equals(readFileSync(path.join(shared, f))), f).toBe(
        true,
      );
  });
});
