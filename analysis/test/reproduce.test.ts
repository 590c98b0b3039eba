// `assay reproduce`: every value printed in the papers that the published CSVs imply
// must be recomputed to the printed precision (one assertion per value).
import { describe, expect, it } from 'vitest';
import { formatReproduceTable, reproducePublished } from '../src/reproduce-published.js';
import { roundTo } from '../src/numeric.js';
import { resolvePublishedDir } from '../src/published-data.js';

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
