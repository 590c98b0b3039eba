// What a benchmark file may be: a regular file with one name, or a folder. A symbolic link, a hard
// link, a device, a FIFO or a socket could put a host file (or a hang) into an agent's workspace, so
// validation refuses them and the worker's copies refuse them again (the benchmark may change after
// validation).
import { copyFileSync, cpSync, lstatSync, readlinkSync, type Stats } from 'node:fs';
import path from 'node:path';
import { messages } from './messages.js';

function specialKind(st: Stats): string | null {
  if (st.isFIFO()) return messages.kindFifo;
  if (st.isSocket()) return messages.kindSocket;
  if (st.isBlockDevice()) return messages.kindBlockDevice;
  if (st.isCharacterDevice()) return messages.kindCharDevice;
  return null;
}

/** Why the entry at `abs` may not be part of a benchmark, or null for a regular file or a folder. */
export function refusalOf(abs: string, st: Stats = lstatSync(abs)): string | null {
  if (st.isSymbolicLink()) {
    let target = '?';
    try {
      target = readlinkSync(abs);
    } catch {
      // Unreadable link text: the refusal stands without it.
    }
    return messages.symlink(target);
  }
  const kind = specialKind(st);
  if (kind !== null) return messages.specialFile(kind);
  if (st.isFile() && st.nlink > 1) return messages.hardLink(st.nlink);
  return null;
}

class BenchmarkFileError extends Error {
  override name = 'BenchmarkFileError';
}

function assertBenchmarkEntry(abs: string): void {
  const reason = refusalOf(abs);
  if (reason !== null) throw new BenchmarkFileError(`${abs}: ${reason}`);
}

/** Refuse a link among the folders between `root` and `abs` (a task folder that is a link, say). */
function assertPathWithin(root: string, abs: string): void {
  const rel = path.relative(root, path.dirname(abs));
  if (rel.startsWith('..') || path.isAbsolute(rel))
    throw new BenchmarkFileError(`${abs}: ${messages.outsideBenchmark}`);
  let here = root;
  for (const part of rel.split(path.sep).filter((p) => p !== '')) {
    here = path.join(here, part);
    assertBenchmarkEntry(here);
  }
}

/**
 * Copy a folder of the benchmark at `root` without following any link; throws at the first entry
 * (or folder on the way from `root`) that is not a regular file or folder.
 */
export function copyBenchmarkTree(src: string, dest: string, root: string): void {
  assertPathWithin(root, src);
  cpSync(src, dest, {
    recursive: true,
    dereference: false,
    filter: (from) => {
      assertBenchmarkEntry(from);
      return true;
    },
  });
}

/** Copy one file of the benchmark at `root`; throws when it, or a folder on the way, is not regular. */
export function copyBenchmarkFile(src: string, dest: string, root: string): void {
  assertPathWithin(root, src);
  assertBenchmarkEntry(src);
  if (!lstatSync(src).isFile()) throw new BenchmarkFileError(`${src}: ${messages.releaseIsFolder}`);
  copyFileSync(src, dest);
}
