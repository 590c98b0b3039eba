// The maxima in the "Jobs" table of docs/jobs-and-judging.md are the ones validation applies: each
// range is probed at its bounds on the job schema, and each file cap is the one the loader uses.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobSchema } from '@assay/core';
import { FILE_LIMITS } from '../src/index.js';

const DOC = readFileSync(path.resolve(import.meta.dirname, '../../../docs/jobs-and-judging.md'), 'utf8');
const JOBS = DOC.slice(DOC.indexOf('## Jobs'), DOC.indexOf('\n## ', DOC.indexOf('## Jobs') + 1));

/** 604 800 and 1000, as the docs write numbers. */
const spaced = (n: number) => (n < 10_000 ? String(n) : String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' '));

const base = { schema: 'assay.job/v1', id: 'j', benchmark: '.', systems: [{ id: 'a', harness: 'oracle' }] };
const jobWith = (field: string, value: number) => {
  const [head, tail] = field.split('.');
  return tail === undefined ? { ...base, [field]: value } : { ...base, [head!]: { [tail]: value } };
};

const RANGES: [string, number, number][] = [
  ['trials', 1, 1000],
  ['concurrency', 1, 1000],
  ['limits.agentSeconds', 0, 604_800],
  ['limits.verifierSeconds', 0, 604_800],
  ['limits.setupSeconds', 0, 86_400],
  ['limits.maxSteps', 1, 100_000],
  ['resources.cpus', 0.01, 256],
  ['resources.memoryGiB', 0.0625, 1024],
  ['resources.storageGiB', 0.0625, 16_384],
  ['resources.pids', 16, 4_194_304],
  ['judge.batchSize', 1, 100],
  ['judge.concurrency', 1, 64],
  ['judge.attempts', 1, 10],
  ['judge.maxSteps', 1, 1000],
  ['judge.timeoutSeconds', 0, 86_400],
];

describe("docs/jobs-and-judging.md's job maxima", () => {
  it.each(RANGES)('%s: %d to %d', (field, min, max) => {
    const ok = (v: number) => jobSchema.safeParse(jobWith(field, v)).success;
    expect(ok(max)).toBe(true);
    expect(ok(max + 1)).toBe(false);
    if (min > 0) expect([ok(min), ok(min / 2)]).toEqual([true, false]);
    const row = JOBS.split('\n').find((l) => l.includes(`\`${field}\``) || l.includes(`\`.${field.split('.')[1]}\``));
    expect(row, field).toBeDefined();
    expect(row).toContain(spaced(max));
  });

  it('file caps', () => {
    expect(FILE_LIMITS).toEqual({
      yamlBytes: 1024 ** 2,
      fileBytes: 256 * 1024 ** 2,
      files: 10_000,
      depth: 32,
      aliases: 100,
    });
    for (const text of ['1 MiB, UTF-8, 100 alias expansions', '256 MiB', '10 000 files, 32 folders deep'])
      expect(JOBS).toContain(text);
  });
});
