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

  it('prints every row in a fixed order with its recomputed value', () => {
    expect(formatReproduceTable(rows)).toMatchInlineSnapshot(`
      "benchmark     quantity                                                               published  recomputed  rounded  match
      ------------  ---------------------------------------------------------------------  ---------  ----------  -------  -----
      StartupBench  Table 3 Overall avg score, Kimi-K3 (task-weighted domains)                 73.67     73.6720    73.67  yes
      StartupBench  Table 3 Overall success rate, Kimi-K3 (task-weighted domains)              29.55     29.5528    29.55  yes
      StartupBench  Table 3 Overall avg score, GPT-5.6-sol (task-weighted domains)             73.61     73.6141    73.61  yes
      StartupBench  Table 3 Overall success rate, GPT-5.6-sol (task-weighted domains)          31.27     31.2718    31.27  yes
      StartupBench  Table 3 Overall avg score, GPT-5.5 (task-weighted domains)                 72.79     72.7907    72.79  yes
      StartupBench  Table 3 Overall success rate, GPT-5.5 (task-weighted domains)              26.80     26.8049    26.80  yes
      StartupBench  Table 3 Overall avg score, Seed-2.1-Pro (task-weighted domains)            67.19     67.1890    67.19  yes
      StartupBench  Table 3 Overall success rate, Seed-2.1-Pro (task-weighted domains)         22.34     22.3359    22.34  yes
      StartupBench  Table 3 Overall avg score, Kimi-K2.6 (task-weighted domains)               59.95     59.9510    59.95  yes
      StartupBench  Table 3 Overall success rate, Kimi-K2.6 (task-weighted domains)            13.06     13.0570    13.06  yes
      StartupBench  Table 3 Overall avg score, GLM-5.1 (task-weighted domains)                 60.79     60.7884    60.79  yes
      StartupBench  Table 3 Overall success rate, GLM-5.1 (task-weighted domains)              16.49     16.4940    16.49  yes
      StartupBench  Table 3 Overall avg score, Qwen-3.6-Max (task-weighted domains)            59.46     59.4614    59.46  yes
      StartupBench  Table 3 Overall success rate, Qwen-3.6-Max (task-weighted domains)         15.12     15.1204    15.12  yes
      StartupBench  Table 3 Overall avg score, DeepSeek-V4-Pro (task-weighted domains)         61.11     61.1118    61.11  yes
      StartupBench  Table 3 Overall success rate, DeepSeek-V4-Pro (task-weighted domains)      16.49     16.4935    16.49  yes
      StartupBench  Table 3 Overall avg score, Gemini-3.1-Pro (task-weighted domains)          49.73     49.7320    49.73  yes
      StartupBench  Table 3 Overall success rate, Gemini-3.1-Pro (task-weighted domains)        6.53      6.5287     6.53  yes
      StartupBench  Table 3 Finance avg score, mean over models                                54.48     54.4822    54.48  yes
      StartupBench  Table 4 Average row, Auxiliary                                             68.67     68.6689    68.67  yes
      StartupBench  Table 4 Average row, Important                                             65.89     65.8933    65.89  yes
      StartupBench  Table 4 Average row, Core                                                  63.45     63.4522    63.45  yes
      StartupBench  Table 4 models with Auxiliary > Important > Core                               8           8        8  yes
      StartupBench  Table 6 Max–Min, GPT-5.5                                                    2.68      2.6800     2.68  yes
      StartupBench  Table 6 Max–Min, GLM-5.1                                                    0.61      0.6100     0.61  yes
      StartupBench  Table 6 Max–Min, Qwen-3.6-Max                                               2.08      2.0800     2.08  yes
      StartupBench  Table 6 Average row, Hermes                                                63.43     63.4333    63.43  yes
      StartupBench  Table 6 Average row, Claude Code                                           62.56     62.5567    62.56  yes
      StartupBench  Table 6 Average row, Nanobot                                               64.35     64.3467    64.35  yes
      StartupBench  Table 6 Average row, Max–Min                                                1.79      1.7900     1.79  yes
      StartupBench  Table 6 ranking preserved across harnesses (min Kendall tau)                   1           1        1  yes
      StartupBench  Table 7 General (All Runs avg) score, mean of Table 3 Overall              64.26     64.2567    64.26  yes
      StartupBench  Table 7 General (All Runs avg) success, mean of Table 3 Overall            19.74     19.7399    19.74  yes
      StartupBench  Table 7 score gap, Specialized − General (Oracle)                          11.75     11.7500    11.75  yes
      StartupBench  Table 7 success gap, Specialized − General (Oracle)                        11.12     11.1200    11.12  yes
      StartupBench  Table 5 compliance, Kimi-K3, as 164 of 168 runs                             97.6      97.619     97.6  yes
      StartupBench  Table 5 compliance, Seed-2.1-Pro, as 160 of 168 runs                        95.2      95.238     95.2  yes
      StartupBench  Table 5 compliance, GPT-5.6-sol, as 159 of 168 runs                         94.6      94.643     94.6  yes
      StartupBench  Table 5 compliance, Qwen-3.6-Max, as 159 of 168 runs                        94.6      94.643     94.6  yes
      StartupBench  Table 5 compliance, DeepSeek-V4-Pro, as 158 of 168 runs                     94.0      94.048     94.0  yes
      StartupBench  Table 5 compliance, GPT-5.5, as 157 of 168 runs                             93.5      93.452     93.5  yes
      StartupBench  Table 5 compliance, Kimi-K2.6, as 156 of 168 runs                           92.9      92.857     92.9  yes
      StartupBench  Table 5 compliance, Gemini-3.1-Pro, as 146 of 168 runs                      86.9      86.905     86.9  yes
      StartupBench  Table 5 compliance, GLM-5.1, as 145 of 168 runs                             86.3      86.310     86.3  yes
      DeliverBench  Table 5 final-delivery Mean, Claude                                        65.00     64.9964    65.00  yes
      DeliverBench  Table 5 process Mean, Claude                                               79.75     79.7536    79.75  yes
      DeliverBench  Table 5 final-delivery Mean, GPT                                           63.75     63.7473    63.75  yes
      DeliverBench  Table 5 process Mean, GPT                                                  76.74     76.7436    76.74  yes
      DeliverBench  Table 5 final-delivery Mean, Qwen                                          60.39     60.3936    60.39  yes
      DeliverBench  Table 5 process Mean, Qwen                                                 73.22     73.2218    73.22  yes
      DeliverBench  Table 5 final-delivery Mean, DeepSeek                                      58.18     58.1827    58.18  yes
      DeliverBench  Table 5 process Mean, DeepSeek                                             73.94     73.9400    73.94  yes
      DeliverBench  Table 5 final-delivery Mean, Kimi                                          59.39     59.3927    59.39  yes
      DeliverBench  Table 5 process Mean, Kimi                                                 70.66     70.6564    70.66  yes
      DeliverBench  Table 5 final-delivery Mean, GLM                                           44.46     44.4645    44.46  yes
      DeliverBench  Table 5 process Mean, GLM                                                  63.00     63.0045    63.00  yes
      DeliverBench  Table 5 final-delivery Mean, Gemini                                        40.39     40.3855    40.39  yes
      DeliverBench  Table 5 process Mean, Gemini                                               58.10     58.0982    58.10  yes
      DeliverBench  Process–final gap, smallest over systems                                    11.3      11.264     11.3  yes
      DeliverBench  Process–final gap, largest over systems                                     18.5      18.540     18.5  yes
      DeliverBench  Outcomes below the equal-score line (final < process)                         69          69       69  yes
      DeliverBench  System–project outcomes                                                       77          77       77  yes
      DeliverBench  Final-delivery mean, lowest system                                          40.4      40.385     40.4  yes
      DeliverBench  Final-delivery mean, highest system                                         65.0      64.996     65.0  yes
      DeliverBench  Final-delivery mean, GPT (1 decimal)                                        63.7      63.747     63.7  yes
      DeliverBench  Process mean, Claude (1 decimal)                                            79.8      79.754     79.8  yes
      DeliverBench  Process mean, GLM (1 decimal)                                               63.0      63.005     63.0  yes
      DeliverBench  Final-delivery mean, GLM (1 decimal)                                        44.5      44.465     44.5  yes

      68 of 68 published values reproduced at printed precision."
    `);
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
