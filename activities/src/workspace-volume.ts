// The storage cap: each trial's (or project's) work folder is a fixed-size ext4
// image, loop-mounted, so an agent cannot write more than resources.storageGiB.
// Docker's `--storage-opt size=` does not work on overlay over ext4, and a bind
// mount would not be covered by it anyway. The image is sparse: it costs only
// what is written. When the machine cannot do this (not root, no free loop
// device, no mkfs.ext4) the cap is reported as not enforced, never silently.
import { execFile, execFileSync } from 'node:child_process';
import { closeSync, existsSync, ftruncateSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export interface StorageCap {
  limitGiB: number;
  enforced: boolean;
  /** Why the cap is not enforced, when it is not. */
  note: string | null;
}

export function isMountPoint(dir: string): boolean {
  const target = path.resolve(dir);
  // Field 5 of /proc/self/mountinfo is the mount point (octal escapes for spaces).
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .some((line) => line.split(' ')[4]?.replace(/\\040/g, ' ') === target);
}

/** Mount (creating on first use) the image for `workDir`; idempotent. */
export function mountWorkVolume(workDir: string, limitGiB: number): StorageCap {
  mkdirSync(workDir, { recursive: true });
  if (isMountPoint(workDir)) return { limitGiB, enforced: true, note: null };
  if (process.platform !== 'linux' || process.getuid?.() !== 0) {
    return {
      limitGiB,
      enforced: false,
      note: 'the storage cap needs root on Linux (a loop-mounted image); not enforced',
    };
  }
  const image = `${workDir}.ext4`;
  try {
    if (!existsSync(image)) {
      const fd = openSync(`${image}.tmp`, 'w');
      ftruncateSync(fd, Math.ceil(limitGiB * 1024 ** 3));
      closeSync(fd);
      execFileSync(
        'mkfs.ext4',
        ['-q', '-F', '-m', '0', '-E', 'lazy_itable_init=1,lazy_journal_init=1', `${image}.tmp`],
        { stdio: 'pipe' },
      );
      execFileSync('mv', [`${image}.tmp`, image]);
    }
    execFileSync('mount', ['-o', 'loop,nosuid,nodev', image, workDir], { stdio: 'pipe' });
    return { limitGiB, enforced: true, note: null };
  } catch (err) {
    const detail =
      err instanceof Error && 'stderr' in err ? String((err as { stderr: Buffer }).stderr).trim() : String(err);
    return {
      limitGiB,
      enforced: false,
      note: `could not mount a ${limitGiB} GiB workspace image (${detail.split('\n')[0]}); not enforced`,
    };
  }
}

/**
 * As mountWorkVolume, without blocking the worker's event loop while mkfs and mount run (the
 * other trials' activities and the workflow tasks of this worker go on meanwhile).
 */
export async function mountWorkVolumeAsync(workDir: string, limitGiB: number): Promise<StorageCap> {
  mkdirSync(workDir, { recursive: true });
  if (isMountPoint(workDir)) return { limitGiB, enforced: true, note: null };
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return mountWorkVolume(workDir, limitGiB);
  const image = `${workDir}.ext4`;
  try {
    if (!existsSync(image)) {
      const fd = openSync(`${image}.tmp`, 'w');
      ftruncateSync(fd, Math.ceil(limitGiB * 1024 ** 3));
      closeSync(fd);
      await execFileAsync('mkfs.ext4', [
        '-q',
        '-F',
        '-m',
        '0',
        '-E',
        'lazy_itable_init=1,lazy_journal_init=1',
        `${image}.tmp`,
      ]);
      await rename(`${image}.tmp`, image);
    }
    await execFileAsync('mount', ['-o', 'loop,nosuid,nodev', image, workDir]);
    return { limitGiB, enforced: true, note: null };
  } catch (err) {
    const detail = err instanceof Error && 'stderr' in err ? String((err as { stderr: unknown }).stderr).trim() : '';
    return {
      limitGiB,
      enforced: false,
      note: `could not mount a ${limitGiB} GiB workspace image (${(detail || String(err)).split('\n')[0]}); not enforced`,
    };
  }
}

/** As unmountWorkVolume, without blocking the event loop. */
export async function unmountWorkVolumeAsync(workDir: string): Promise<void> {
  if (!isMountPoint(workDir)) return;
  await execFileAsync('umount', [workDir]);
}

/** Unmount after the trial is recorded; the image stays next to the folder, mountable for inspection. */
export function unmountWorkVolume(workDir: string): void {
  if (!isMountPoint(workDir)) return;
  execFileSync('umount', [workDir], { stdio: 'pipe' });
}

/** Remove a folder's contents but not the folder (it may be a mount point). */
export function emptyDir(dir: string): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (name === 'lost+found') continue;
    rmSync(path.join(dir, name), { recursive: true, force: true });
  }
}
