// The storage cap on a real loop-mounted ext4 image (needs root, as the worker does).
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMountPoint, mountWorkVolume, unmountWorkVolume } from '../src/index.js';
import { emptyDir, mountWorkVolumeAsync, unmountWorkVolumeAsync } from '../src/workspace-volume.js';

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

describe.skipIf(!root)('workspace volume, without blocking the event loop', () => {
  it('caps, remounts with the data kept, and is idempotent, as the blocking form', async () => {
    const work = path.join(mkdtempSync(path.join(os.tmpdir(), 'assay-vol-')), 'work');
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const cap = await mountWorkVolumeAsync(work, 32 / 1024);
    clearInterval(timer);
    expect(cap).toEqual({ limitGiB: 32 / 1024, enforced: true, note: null });
    // mkfs and mount ran while timers fired: the loop was not blocked.
    expect(ticks).toBeGreaterThan(0);
    expect((await mountWorkVolumeAsync(work, 32 / 1024)).enforced).toBe(true);
    try {
      writeFileSync(path.join(work, 'small.txt'), 'kept');
      expect(() => writeFileSync(path.join(work, 'big.bin'), Buffer.alloc(48 * 1024 ** 2))).toThrow(/ENOSPC/);
    } finally {
      await unmountWorkVolumeAsync(work);
    }
    expect(isMountPoint(work)).toBe(false);
    await mountWorkVolumeAsync(work, 32 / 1024);
    expect(readFileSync(path.join(work, 'small.txt'), 'utf8')).toBe('kept');
    await unmountWorkVolumeAsync(work);
    await unmountWorkVolumeAsync(work); // not mounted: nothing to do
  });
});

describe('workspace volume without root', () => {
  it.skipIf(root)('says the cap is not enforced instead of pretending', () => {
    const work = path.join(mkdtempSync(path.join(os.tmpdir(), 'assay-vol-')), 'work');
    expect(mountWorkVolume(work, 1)).toMatchObject({ enforced: false, note: expect.stringContaining('not enforced') });
  });
});
