// The storage cap on a real loop-mounted ext4 image (needs root, as the worker does).
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMountPoint, mountWorkVolume, unmountWorkVolume } from '../src/index.js';
import { emptyDir } from '../src/workspace-volume.js';

const root = process.getuid?.() === 0;

describe.skipIf(!root)('workspace volume', () => {
  it('caps what can be written, keeps the data across remounts, and is idempotent', () => {
    const work = path.join(mkdtempSync(path.join(os.tmpdir(), 'assay-vol-')), 'work');
    const cap = mountWorkVolume(work, 32 / 1024);
    expect(cap).toEqual({ limitGiB: 32 / 1024, enforced: true, note: null });
    expect(isMountPoint(work)).toBe(true);
    expect(mountWorkVolume(work, 32 / 1024).enforced).toBe(true); // already mounted: no second mount
    try {
      writeFileSync(path.join(work, 'small.txt'), 'kept');
      expect(() => writeFileSync(path.join(work, 'big.bin'), Buffer.alloc(48 * 1024 ** 2))).toThrow(/ENOSPC/);
    } finally {
      unmountWorkVolume(work);
    }
    expect(isMountPoint(work)).toBe(false);
    expect(existsSync(path.join(work, 'small.txt'))).toBe(false);
    mountWorkVolume(work, 32 / 1024);
    expect(readFileSync(path.join(work, 'small.txt'), 'utf8')).toBe('kept');
    emptyDir(work);
    expect(readdirSync(work)).toEqual(['lost+found']);
    unmountWorkVolume(work);
  });
});

describe('workspace volume without root', () => {
  it.skipIf(root)('says the cap is not enforced instead of pretending', () => {
    const work = path.join(mkdtempSync(path.join(os.tmpdir(), 'assay-vol-')), 'work');
    expect(mountWorkVolume(work, 1)).toMatchObject({ enforced: false, note: expect.stringContaining('not enforced') });
  });
});
