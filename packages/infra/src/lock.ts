// A cross-process lock (a pid file created with O_EXCL) so that parallel callers —
// vitest forks, two CLIs — do not debootstrap, pip-install or start daemons twice.
import fs from 'node:fs';
import path from 'node:path';
import { messages } from './messages.js';
import { locksDir } from './paths.js';
import { processAlive, sleep, type Log } from './run.js';

const inProcess = new Map<string, Promise<unknown>>();

export async function withLock<T>(
  root: string,
  name: string,
  fn: () => Promise<T>,
  log?: Log,
  timeoutMs = 30 * 60_000,
): Promise<T> {
  const file = path.join(locksDir(root), `${name}.lock`);
  // Serialise callers inside this process first; the file lock then excludes other processes.
  const previous = inProcess.get(file) ?? Promise.resolve();
  const mine = previous
    .catch(() => undefined)
    .then(async () => {
      await acquire(file, log, timeoutMs);
      try {
        return await fn();
      } finally {
        fs.rmSync(file, { force: true });
      }
    });
  inProcess.set(file, mine);
  try {
    return await mine;
  } finally {
    if (inProcess.get(file) === mine) inProcess.delete(file);
  }
}

async function acquire(file: string, log: Log | undefined, timeoutMs: number): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const started = Date.now();
  let told = false;
  for (;;) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number.parseInt(readOr(file, ''), 10);
    if (!Number.isFinite(holder) || !processAlive(holder)) {
      // Stale lock from a dead process (or half-written): take it over.
      if (Date.now() - mtime(file) > 2_000 || Number.isFinite(holder)) fs.rmSync(file, { force: true });
      await sleep(100);
      continue;
    }
    if (!told) {
      log?.(`waiting for ${path.basename(file)} held by pid ${holder}`);
      told = true;
    }
    if (Date.now() - started > timeoutMs)
      throw new Error(messages.lockTimeout(file, `pid ${holder}`, Math.round(timeoutMs / 1000)));
    await sleep(500);
  }
}

function readOr(file: string, fallback: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return fallback;
  }
}

function mtime(file: string): number {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}
