// The storage cap: each trial's (or project's) work folder is a fixed-size ext4
// image, loop-mounted, so an agent cannot write more than resources.storageGiB.
// Docker's `--storage-opt size=` does not work on overlay over ext4, and a bind
// mount would not be covered by it anyway. The image is sparse: it costs only
// what is written. When the machine cannot do this (not root, no free loop
// device, no mkfs.ext4) the cap is reported as not enforced, never silently.
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import os from 'node:os';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { WORK_VOLUME_SUFFIX } from '@assay/results';
import { runCommand } from './run-command.js';

export interface StorageCap {
  limitGiB: number;
  enforced: boolean;
  /** Why the cap is not enforced, when it is not. */
  note: string | null;
}

/** This process's mount points (field 5 of /proc/self/mountinfo, octal escapes for spaces undone). */
function mountPoints(): string[] {
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[4]?.replace(/\\040/g, ' ') ?? '')
    .filter((point) => point !== '');
}

export function isMountPoint(dir: string): boolean {
  const target = path.resolve(dir);
  return mountPoints().includes(target);
}

/** Mount points under `root` (not `root` itself), deepest first: the order to unmount them in. */
export function mountPointsUnder(root: string): string[] {
  const prefix = path.resolve(root) + path.sep;
  return mountPoints()
    .filter((point) => point.startsWith(prefix))
    .sort((a, b) => b.length - a.length);
}

/**
 * No reserved blocks; inode tables and journal left for the kernel to zero lazily (the image is a
 * fresh sparse file). No resize inode: a work volume is never grown online, and its reserved group
 * descriptor blocks would be 4 of the 4.5 MB mkfs writes per trial (without them a 30 GiB image takes 0.4 MB
 * on disk, and mkfs + mount + umount ~7 ms less).
 */
const MKFS_ARGS = ['-q', '-F', '-m', '0', '-O', '^resize_inode', '-E', 'lazy_itable_init=1,lazy_journal_init=1'];

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
  const image = `${workDir}${WORK_VOLUME_SUFFIX}`;
  try {
    if (!existsSync(image)) {
      const fd = openSync(`${image}.tmp`, 'w');
      ftruncateSync(fd, Math.ceil(limitGiB * 1024 ** 3));
      closeSync(fd);
      execFileSync('mkfs.ext4', [...MKFS_ARGS, `${image}.tmp`], { stdio: 'pipe' });
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
export async function mountWorkVolumeAsync(workDir: string, limitGiB: number, poolDir?: string): Promise<StorageCap> {
  await releases.get(workDir);
  mkdirSync(workDir, { recursive: true });
  if (isMountPoint(workDir)) return { limitGiB, enforced: true, note: null };
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return mountWorkVolume(workDir, limitGiB);
  const image = `${workDir}${WORK_VOLUME_SUFFIX}`;
  const bytes = Math.ceil(limitGiB * 1024 ** 3);
  try {
    if (!existsSync(image) && !(poolDir && (await takePooledImage(poolDir, bytes, image)))) {
      await formatImage(`${image}.tmp`, bytes);
      await rename(`${image}.tmp`, image);
    }
    await runCommand('mount', ['-o', 'loop,nosuid,nodev', image, workDir]);
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
  await releases.get(workDir);
  if (!isMountPoint(workDir)) return;
  await runCommand('umount', [workDir]);
}

/** Unmounts under way in this process, by work folder. */
const releases = new Map<string, Promise<void>>();

/**
 * Unmount once the trial is recorded, without the trial waiting for it (~20 ms of `umount` per
 * trial). Mounting the folder again, or unmounting it, waits for it first; a worker awaits them all
 * before it exits. A failed unmount leaves the volume mounted, as a failed synchronous one would.
 */
export function unmountWorkVolumeLater(workDir: string, onError: (err: unknown) => void = () => undefined): void {
  const release = unmountWorkVolumeAsync(workDir)
    .catch(onError)
    .finally(() => {
      if (releases.get(workDir) === release) releases.delete(workDir);
    });
  releases.set(workDir, release);
}

/** Background unmounts still under way, settled (a worker awaits them before it exits; tests). */
export async function settleWorkVolumeReleases(): Promise<void> {
  while (releases.size > 0) await Promise.allSettled([...releases.values()]);
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

async function formatImage(file: string, bytes: number): Promise<void> {
  const fd = openSync(file, 'w');
  ftruncateSync(fd, bytes);
  closeSync(fd);
  await runCommand('mkfs.ext4', [...MKFS_ARGS, file]);
}

/**
 * Freshly formatted images waiting for a trial, per pool folder and size: a trial's volume is renamed
 * from one instead of formatted on its critical path (each image serves one trial only, so no trial starts on another's files).
 * ASSAY_VOLUME_POOL images are kept ready per size (default 2; 0: no pool), in ASSAY_VOLUME_POOL_DIR
 * (default: the system's temporary folder), never in a results folder. A pool on another file system
 * than the work folder is not used (an image is moved by rename). Pool files are named by the
 * worker's pid: the worker removes its own on exit, and the next worker using the folder removes
 * those of workers that died.
 */
export function volumePoolDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.ASSAY_VOLUME_POOL_DIR || path.join(os.tmpdir(), 'assay-volume-pool'));
}

function volumePoolTarget(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.ASSAY_VOLUME_POOL ?? '2');
  return Number.isInteger(n) && n >= 0 ? n : 2;
}

interface VolumePool {
  dir: string;
  bytes: number;
  ready: string[];
  filling: number;
}

const pools = new Map<string, VolumePool>();
let poolSeq = 0;

/** Move a pooled image to `image` (false: none ready), and start formatting its replacement. */
async function takePooledImage(poolDir: string, bytes: number, image: string): Promise<boolean> {
  if (volumePoolTarget() === 0) return false;
  mkdirSync(poolDir, { recursive: true });
  if (statSync(poolDir).dev !== statSync(path.dirname(image)).dev) return false;
  const pool = poolOf(poolDir, bytes);
  const ready = pool.ready.shift();
  refillPool(pool);
  if (!ready) return false;
  try {
    await rename(ready, image);
    return true;
  } catch {
    await rm(ready, { force: true });
    return false;
  }
}

function poolOf(poolDir: string, bytes: number): VolumePool {
  const dir = path.join(poolDir, String(bytes));
  let pool = pools.get(dir);
  if (!pool) {
    mkdirSync(dir, { recursive: true });
    reapDeadWorkersImages(dir);
    if (pools.size === 0) process.once('exit', drainVolumePools);
    pool = { dir, bytes, ready: [], filling: 0 };
    pools.set(dir, pool);
  }
  return pool;
}

function refillPool(pool: VolumePool): void {
  while (pool.ready.length + pool.filling < volumePoolTarget()) {
    pool.filling++;
    const file = path.join(pool.dir, `${process.pid}-${poolSeq++}.img`);
    formatImage(`${file}.tmp`, pool.bytes)
      .then(() => rename(`${file}.tmp`, file))
      .then(
        () => void pool.ready.push(file),
        () => rm(`${file}.tmp`, { force: true }),
      )
      .finally(() => pool.filling--)
      .catch(() => undefined);
  }
}

/** Remove this worker's pooled images (on exit; tests). */
export function drainVolumePools(): void {
  for (const pool of pools.values()) {
    for (const name of readdirSync(pool.dir, { withFileTypes: false }) as string[])
      if (name.startsWith(`${process.pid}-`)) rmSync(path.join(pool.dir, name), { force: true });
    pool.ready = [];
  }
  pools.clear();
}

function reapDeadWorkersImages(dir: string): void {
  for (const name of readdirSync(dir)) {
    const pid = Number(name.split('-')[0]);
    if (pid === process.pid || (Number.isInteger(pid) && pid > 0 && pidAlive(pid))) continue;
    rmSync(path.join(dir, name), { force: true });
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
