// The CLI refuses a value outside a bound before it contacts anything, naming the argument and the
// range; the ranges are @assay/core's bounds, the ones the job schema and the workflow apply.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONCURRENCY_BOUNDS, GRACE_SECONDS_BOUNDS, JUDGE_COMMAND_CONCURRENCY_BOUNDS } from '@assay/core';
import { cancelCommand, setConcurrencyCommand } from '../src/commands/control-commands.js';
import { messages } from '../src/messages.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const NO_FILE = path.join(ROOT, 'no-such-job.yaml');

describe('bounds on the command line', () => {
  it('set-concurrency refuses 0 and 1001 (and a fraction), naming <n> and 1 to 1000', async () => {
    expect(CONCURRENCY_BOUNDS).toEqual({ min: 1, max: 1000 });
    for (const n of ['0', '1001', '2.5', 'x'])
      await expect(setConcurrencyCommand(NO_FILE, n, {})).rejects.toThrow(
        `set-concurrency <n>: "${n}" is not a whole number from 1 to 1000`,
      );
  });

  it('cancel refuses a grace below 0 or above 7 days, naming --grace and the range', async () => {
    expect(GRACE_SECONDS_BOUNDS).toEqual({ min: 0, max: 604_800 });
    for (const grace of ['-1', '604801', 'soon'])
      await expect(cancelCommand(NO_FILE, { grace })).rejects.toThrow(
        `--grace: "${grace}" is not a number of seconds from 0 to 604800`,
      );
  });

  it('judge --concurrency names its range', () => {
    expect(JUDGE_COMMAND_CONCURRENCY_BOUNDS).toEqual({ min: 1, max: 64 });
    expect(messages.badJudgeConcurrency('65')).toBe('--concurrency: "65" is not a whole number from 1 to 64');
  });

  it('says so as the CLI, exit code 1, and shows the range in --help', () => {
    const assay = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'packages/cli/src/main.ts'), ...args], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, TEMPORAL_ADDRESS: '127.0.0.1:1' },
      });
    const r = assay('set-concurrency', NO_FILE, '1001');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('assay: set-concurrency <n>: "1001" is not a whole number from 1 to 1000');
    expect(assay('set-concurrency', '--help').stdout).toContain('units at once, 1-1000');
  }, 60_000);
});
