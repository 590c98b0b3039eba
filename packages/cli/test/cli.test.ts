// The CLI as a user runs it: exit codes, one-sentence errors, file:field: reason lines.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const assay = (...args: string[]) => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'packages/cli/src/main.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, TEMPORAL_ADDRESS: '127.0.0.1:1' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

describe('assay CLI', () => {
  it('validates the bundled benchmark and job', () => {
    expect(assay('validate', 'datasets/sample')).toMatchObject({
      code: 0,
      out: 'benchmark "sample" (6 tasks, 1 projects) is valid\n',
    });
    expect(assay('validate', 'jobs/sample.yaml')).toMatchObject({ code: 0, out: 'job "sample" is valid\n' });
  });

  it('reports every problem of a bad job as file:field: reason and exits non-zero, without a stack trace', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-cli-'));
    const file = path.join(dir, 'bad.yaml');
    writeFileSync(
      file,
      [
        'schema: assay.job/v1',
        'id: Bad Id',
        `benchmark: ${path.join(ROOT, 'datasets/sample')}`,
        'trials: 0',
        'systems:',
        '  - { id: a, harness: oracle }',
        '  - { id: a, harness: warp-drive }',
        'tasks: [nope]',
      ].join('\n'),
    );
    const r = assay('validate', file);
    expect(r.code).toBe(1);
    const lines = r.err.trim().split('\n');
    const rel = path.relative(ROOT, file);
    expect(lines).toEqual(
      expect.arrayContaining([
        `${rel}:id: must be lowercase letters, digits, ".", "_" or "-"`,
        expect.stringMatching(new RegExp(`^${rel.replaceAll('.', '\\.')}:trials: Too small`)),
        expect.stringMatching(new RegExp(`^${rel.replaceAll('.', '\\.')}:systems\\[1\\]\\.harness: Invalid option`)),
      ]),
    );
    expect(lines.at(-1)).toMatch(/^assay: found \d+ problems; nothing was started$/);
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('prints JSON when asked', () => {
    const r = assay('validate', 'datasets/sample', '--json');
    expect(JSON.parse(r.out)).toEqual({ valid: true, issues: [], warnings: [] });
  });

  it('says clearly when a file does not exist', () => {
    const r = assay('validate', 'no/such/job.yaml');
    expect(r.code).toBe(1);
    expect(r.err).toContain('no/such/job.yaml:(file): file does not exist');
  });

  it('says in one sentence when the Temporal server cannot be reached', () => {
    const r = assay('status', 'jobs/sample.yaml');
    expect(r.code).not.toBe(0);
    expect(r.err.trim().split('\n').at(-1)).toMatch(/^assay: /);
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('has --help on every command', () => {
    for (const cmd of [
      'setup',
      'server',
      'worker',
      'run',
      'status',
      'validate',
      'feedback',
      'judge',
      'report',
      'reproduce',
      'mock-llm',
    ]) {
      const r = assay(cmd, '--help');
      expect(r.code, cmd).toBe(0);
      expect(r.out, cmd).toContain('Usage: assay');
    }
  });
});
