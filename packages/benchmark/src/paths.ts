import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** Resolve `rel` under `base`, or null when it would leave `root` (by `..` or through a symlink). */
export function resolveInside(root: string, base: string, rel: string): string | null {
  const abs = path.resolve(base, rel);
  if (!isInside(root, abs)) return null;
  if (existsSync(abs)) {
    const real = realpathSync(abs);
    if (!isInside(realpathSync(root), real)) return null;
  }
  return abs;
}

export function isInside(root: string, abs: string): boolean {
  const rel = path.relative(root, abs);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
