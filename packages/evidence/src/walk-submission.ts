// Lists a submission folder without following anything: symbolic links are reported (never
// followed, whether they escape or not), hard links (a regular file with more than one name: it
// may be a host file linked in) are refused, special files (FIFOs, sockets, devices) are never
// opened, and the walk stops at a depth and entry cap.
import { lstat, readdir, readlink, realpath } from 'node:fs/promises';
import { join, posix, relative, resolve, dirname, sep } from 'node:path';
import { msg } from './messages.js';
import type { EvidenceLimits } from './limits.js';

export interface WalkEntry {
  path: string;
  abs: string;
  entry: 'file' | 'symlink' | 'other';
  size: number;
  /** For `other`: what it is (`hard link`, `named pipe`, `socket`, `character device`, ...). */
  kind?: string;
  note?: string;
}

function specialKind(s: Awaited<ReturnType<typeof lstat>>): string {
  if (s.isFIFO()) return 'named pipe';
  if (s.isSocket()) return 'socket';
  if (s.isCharacterDevice()) return 'character device';
  if (s.isBlockDevice()) return 'block device';
  return 'unknown kind';
}

/** One entry as the walk lists it (never followed, never opened), or 'dir' to descend into. */
async function classify(abs: string, rel: string, inside: (p: string) => boolean): Promise<WalkEntry | 'dir'> {
  let s;
  try {
    s = await lstat(abs);
  } catch (err) {
    return { path: rel, abs, entry: 'other', size: 0, note: msg.unreadable(err) };
  }
  if (s.isSymbolicLink()) {
    const target = await readlink(abs).catch(() => '?');
    const escapes = !inside(resolve(dirname(abs), target)) || !inside(await realpath(abs).catch(() => '/'));
    return { path: rel, abs, entry: 'symlink', size: 0, note: msg.symlink(target, escapes) };
  }
  if (s.isDirectory()) return 'dir';
  if (s.isFile() && s.nlink > 1)
    return { path: rel, abs, entry: 'other', size: s.size, kind: 'hard link', note: msg.hardLink(s.nlink) };
  if (s.isFile()) return { path: rel, abs, entry: 'file', size: s.size };
  const kind = specialKind(s);
  return { path: rel, abs, entry: 'other', size: 0, kind, note: msg.special(kind) };
}

export async function walkSubmission(
  root: string,
  limits: Pick<EvidenceLimits, 'maxFiles' | 'maxDepth'>,
): Promise<{ entries: WalkEntry[]; notes: string[] }> {
  const entries: WalkEntry[] = [];
  const notes: string[] = [];
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch (err) {
    return { entries, notes: [msg.rootMissing(root, err)] };
  }
  const inside = (p: string) => p === realRoot || p.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
  const stack: Array<{ dir: string; depth: number }> = [{ dir: realRoot, depth: 0 }];
  let capped = false;
  while (stack.length > 0 && !capped) {
    const { dir, depth } = stack.pop()!;
    let names: string[];
    try {
      names = (await readdir(dir)).sort();
    } catch (err) {
      notes.push(msg.unreadable(err));
      continue;
    }
    const subdirs: string[] = [];
    for (const name of names) {
      if (entries.length >= limits.maxFiles) {
        notes.push(msg.tooManyFiles(limits.maxFiles));
        capped = true;
        break;
      }
      const abs = join(dir, name);
      const rel = relative(realRoot, abs).split(sep).join(posix.sep);
      const e = await classify(abs, rel, inside);
      if (e !== 'dir') entries.push(e);
      else if (depth + 1 > limits.maxDepth) notes.push(msg.tooDeep(rel, limits.maxDepth));
      else subdirs.push(abs);
    }
    for (const d of subdirs.reverse()) stack.push({ dir: d, depth: depth + 1 });
  }
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { entries, notes };
}
