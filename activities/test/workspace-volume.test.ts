// The storage cap on a real loop-mounted ext4 image (needs root, as the worker does).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMountPoint, mountWorkVolume, unmountWorkVolume } from '../src/index.js';
import { drainVolumePools, emptyDir, mountWorkVolumeAsync, unmountWorkVolumeAsync } from '../src/workspace-volume.js';

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

describe.skipIf(!root)('workspace volume from a pool of formatted images', () => {
  it('takes a ready image instead of formatting one, refills, and removes dead and own pool files', async () => {
    const base = mkdtempSync(path.join(os.tmpdir(), 'assay-vol-'));
    const poolDir = path.join(base, 'pool');
    const sized = path.join(poolDir, String(32 * 1024 ** 2));
    // A pool file of a worker that died: removed when the pool is first used.
    mkdirSync(sized, { recursive: true });
    const dead = path.join(sized, `${spawnSync('true').pid}-0.img`);
    writeFileSync(dead, '');
    const poolFiles = () => readdirSync(sized).filter((f) => f.endsWith('.img'));
    const waitForPool = async () => {
      for (let i = 0; i < 200 && poolFiles().length < 2; i++) await new Promise((r) => setTimeout(r, 50));
      return poolFiles().map((f) => statSync(path.join(sized, f)).ino);
    };

    const first = path.join(base, 'work', 'a');
    expect((await mountWorkVolumeAsync(first, 32 / 1024, poolDir)).enforced).toBe(true); // formatted inline
    expect(existsSync(dead)).toBe(false);
    const pooled = await waitForPool();
    expect(pooled).toHaveLength(2);

    const second = path.join(base, 'work', 'b');
    expect(await mountWorkVolumeAsync(second, 32 / 1024, poolDir)).toEqual({
      limitGiB: 32 / 1024,
      enforced: true,
      note: null,
    });
    try {
      expect(pooled).toContain(statSync(`${second}.ext4`).ino);
      expect(readdirSync(second)).toEqual(['lost+found']); // a fresh file system, nobody's before
      expect(() => writeFileSync(path.join(second, 'big.bin'), Buffer.alloc(48 * 1024 ** 2))).toThrow(/ENOSPC/);
    } finally {
      await unmountWorkVolumeAsync(second);
      await unmountWorkVolumeAsync(first);
    }
    expect(await waitForPool()).toHaveLength(2); // refilled
    drainVolumePools();
    expect(readdirSync(sized)).toEqual([]);
  });
});

describe('workspace volume without root', () => {
  it.skipIf(root)('says the cap is not enforced instead of pretending', () => {
    const work = path.join(mkdtempSync(path.join(os.tmpdir(), 'assay-vol-')), 'work');
    expect(mountWorkVolume(work, 1)).toMatchObject({ enforced: false, note: expect.stringContaining('not enforced') });
  });
});
