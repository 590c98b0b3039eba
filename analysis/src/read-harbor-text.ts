// A text file of a Harbor job folder (trial.log, exception.txt, a trajectory), read so that a hostile folder
// cannot hurt the reader: a file reached through a symlink that leaves the job folder is not read, nor anything
// but a regular file, and a file above the limit is read as its head and its tail only (never loaded whole).
import { closeSync, existsSync, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** What is shown of a log by default: its first 64 KiB and its last 192 KiB (where a failure ends up). */
export const HARBOR_TEXT_LIMIT = 256 * 1024;

export interface HarborText {
  /** The file's name relative to the job folder, for notes (never the absolute path). */
  name: string;
  present: boolean;
  /** The head, then the tail when the middle was left out. */
  text: string;
  size: number;
  /** Bytes left out between head and tail (0: the whole file). */
  omittedBytes: number;
  /** Why the file is not shown, when it is there but was not read. */
  note: string | null;
}

/** True when `file` is inside `root` once every symlink on the way is resolved. */
export function isInsideHarborDir(root: string, file: string): boolean {
  try {
    const real = realpathSync(file);
    const base = realpathSync(root);
    return real === base || real.startsWith(base + path.sep);
  } catch {
    return false;
  }
}

/** `file` (below `jobDir`) as text, bounded by `limit` bytes; absent: present false, no note. */
export function readHarborText(jobDir: string, file: string, limit = HARBOR_TEXT_LIMIT): HarborText {
  const name = path.relative(jobDir, file);
  const none = { name, present: false, text: '', size: 0, omittedBytes: 0 };
  if (!existsSync(file)) return { ...none, note: null };
  if (!isInsideHarborDir(jobDir, file)) return { ...none, note: `${name} leads out of the job folder: not read` };
  if (!statSync(file).isFile()) return { ...none, note: `${name} is not a regular file: not read` };
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size <= limit) return { name, present: true, text: chunkOf(fd, 0, size), size, omittedBytes: 0, note: null };
    const head = Math.floor(limit / 4);
    const tail = limit - head;
    const text = `${chunkOf(fd, 0, head)}\n… ${size - limit} bytes not shown …\n${chunkOf(fd, size - tail, tail)}`;
    return { name, present: true, text, size, omittedBytes: size - limit, note: null };
  } finally {
    closeSync(fd);
  }
}

function chunkOf(fd: number, position: number, length: number): string {
  const buf = Buffer.alloc(length);
  const read = readSync(fd, buf, 0, length, position);
  return buf.subarray(0, read).toString('utf8');
}
