// The job lock read back from a folder store: absent, valid, and damaged (refused when strict, null otherwise).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acceptUnits } from '@assay/core';
import { JobLockError, createFsResultsStore, jobLockKey, readJobLock } from '../src/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function store() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-lock-'));
  dirs.push(dir);
  return { dir, store: createFsResultsStore(dir) };
}

describe('readJobLock', () => {
  it('reads nothing before the first run, and the lock as written after it', async () => {
    const { store: s } = store();
    expect(await readJobLock(s, { strict: true })).toBeNull();
    const lock = acceptUnits(null, { jobId: 'j', specDigest: 'd', units: {} }, 'now');
    await s.putJson(jobLockKey(), lock);
    expect(await readJobLock(s, { strict: true })).toEqual(lock);
  });

  it('refuses a damaged lock when strict, and reads none otherwise', async () => {
    const { dir, store: s } = store();
    writeFileSync(path.join(dir, jobLockKey()), '{ not json');
    await expect(readJobLock(s, { strict: true })).rejects.toBeInstanceOf(JobLockError);
    expect(await readJobLock(s, { strict: false })).toBeNull();
    writeFileSync(path.join(dir, jobLockKey()), JSON.stringify({ schema: 'assay.job-lock/v1', jobId: 3 }));
    await expect(readJobLock(s, { strict: true })).rejects.toThrow(/jobId/);
    expect(await readJobLock(s, { strict: false })).toBeNull();
  });
});
