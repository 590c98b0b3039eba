// The limits docs/writing-a-benchmark.md documents are the code's: its block is generated from
// DEFAULT_LIMITS, LIMIT_MAXIMA and RENDER_DEFAULTS, and no other number for a limit is written
// elsewhere in the doc (prose names the budget and points at the table).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, LIMIT_MAXIMA, resolveLimits } from '../src/index.js';
import { renderLimitsTable } from '../src/limits-table.js';
import { documentedLimits, LIMITS_DOC } from './helpers/limits-doc.js';

describe('documented evidence limits', () => {
  it('the doc holds the table generated from the code (pnpm tsx packages/evidence/test/helpers/limits-doc.ts)', () => {
    expect(documentedLimits()).toBe(renderLimitsTable());
  });

  it('every limit has a row with its default and its maximum, and the maximum is what resolveLimits clamps to', () => {
    const table = renderLimitsTable();
    for (const key of Object.keys(DEFAULT_LIMITS) as Array<keyof typeof DEFAULT_LIMITS>) {
      expect(table, key).toContain(`| \`${key}\` |`);
      expect(resolveLimits({ [key]: LIMIT_MAXIMA[key] * 2 })[key]).toBe(LIMIT_MAXIMA[key]);
    }
    expect(table).toContain(
      '| `maxCells` | spreadsheet cells kept per workbook (csv: fields); the rest are counted | 1,000,000 | 10,000,000 |',
    );
    expect(table).toContain('| `maxFileBytes` | a file larger than this is listed but not parsed | 64 MiB | 1 GiB |');
  });

  it('prose outside the table states no limit of its own', () => {
    const doc = readFileSync(LIMITS_DOC, 'utf8').replace(documentedLimits() ?? '', '');
    expect(doc).not.toMatch(/cell cap \(|size cap \(|1,000,000 cells|10 M characters/);
  });
});
