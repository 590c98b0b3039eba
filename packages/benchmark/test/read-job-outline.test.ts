// readJobOutline (what `assay status` reads of a job) agrees with the full loadJob on what the job
// runs, and a job whose benchmark cannot be listed fails with the full load's own problems.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidInputError, inspectJob, loadJob, readJobOutline, selectProjects, selectTasks } from '../src/index.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SAMPLE = path.join(ROOT, 'datasets/sample');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function jobFile(fields: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-outline-'));
  dirs.push(dir);
  const file = path.join(dir, 'job.yaml');
  const job = { schema: 'assay.job/v1', id: 'j', benchmark: SAMPLE, systems: [{ id: 'a', harness: 'oracle' }] };
  writeFileSync(file, stringify({ ...job, ...fields }));
  return file;
}

describe('readJobOutline', () => {
  it.each([
    ['the whole benchmark', {}],
    ['a task filter', { tasks: ['legal-nda-review', 'med-discharge-reconciliation'] }],
    ['a project filter', { projects: ['fdd-hengtai'] }],
    ['both filters', { tasks: ['fin-term-loan-schedule'], projects: ['fdd-hengtai'], trials: 2 }],
  ])('selects what loadJob selects: %s', (_what, fields) => {
    const file = jobFile(fields);
    const full = loadJob(file, { repoRoot: ROOT, machine: false });
    const outline = readJobOutline(file, { repoRoot: ROOT });
    expect(outline.taskIds).toEqual(selectTasks(full).map((t) => t.spec.id));
    expect(outline.projectIds).toEqual(selectProjects(full).map((p) => p.spec.id));
    expect(outline.spec).toEqual(full.spec);
    expect(outline.resultsDir).toBe(full.resultsDir);
    expect(outline.taskIds.length + outline.projectIds.length).toBeGreaterThan(0);
  });

  it('refuses a task the benchmark does not list, as loadJob does', () => {
    const file = jobFile({ tasks: ['no-such-task'] });
    const problems = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        if (err instanceof InvalidInputError) return err.issues.map((i) => i.reason);
        throw err;
      }
      return [];
    };
    const outline = problems(() => readJobOutline(file, { repoRoot: ROOT }));
    expect(outline.join('\n')).toContain('no-such-task');
    expect(outline).toEqual(problems(() => loadJob(file, { repoRoot: ROOT, machine: false })));
  });

  it("names a missing benchmark with the full load's words", () => {
    const file = jobFile({ benchmark: './nowhere' });
    const expected = inspectJob(file, { repoRoot: ROOT, machine: false }).issues;
    expect(expected.length).toBeGreaterThan(0);
    expect(() => readJobOutline(file, { repoRoot: ROOT })).toThrow(InvalidInputError);
    try {
      readJobOutline(file, { repoRoot: ROOT });
    } catch (err) {
      expect((err as InvalidInputError).issues).toEqual(expected);
    }
  });
});
