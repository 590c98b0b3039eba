// The generated limits block of docs/writing-a-benchmark.md (between its two markers), read and
// rewritten: `pnpm tsx packages/evidence/test/helpers/limits-doc.ts` writes the block from the code.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderLimitsTable } from '../../src/limits-table.js';

export const LIMITS_DOC = path.resolve(import.meta.dirname, '../../../../docs/writing-a-benchmark.md');
const BEGIN = '<!-- evidence limits: generated from packages/evidence/src/limits-table.ts -->';
const END = '<!-- end of evidence limits -->';

/** The block as the doc has it, or null when the markers are missing. */
export function documentedLimits(doc = readFileSync(LIMITS_DOC, 'utf8')): string | null {
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  return start === -1 || end < start ? null : doc.slice(start + BEGIN.length, end).trim();
}

export function writeLimitsDoc(): void {
  const doc = readFileSync(LIMITS_DOC, 'utf8');
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start === -1 || end < start) throw new Error(`${LIMITS_DOC}: the markers ${BEGIN} and ${END} are missing`);
  writeFileSync(LIMITS_DOC, `${doc.slice(0, start + BEGIN.length)}\n${renderLimitsTable()}\n${doc.slice(end)}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) writeLimitsDoc();
