import { existsSync, lstatSync, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { Issue } from './issue.js';
import { messages } from './messages.js';

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

/** Walk a folder and report symlinks that point outside `root`. Returns the regular files found (relative). */
export function walkContained(root: string, dir: string, label: string, issues: Issue[]): string[] {
  const out: string[] = [];
  if (!existsSync(dir)) return out;
  const realRoot = realpathSync(root);
  const visit = (abs: string): void => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const child = path.join(abs, entry.name);
      const rel = path.relative(dir, child);
      if (lstatSync(child).isSymbolicLink()) {
        let target: string | null = null;
        try {
          target = realpathSync(child);
        } catch {
          target = null;
        }
        if (target === null || !isInside(realRoot, target)) {
          issues.push({ file: label, field: rel, reason: messages.symlinkEscapes(rel) });
          continue;
        }
      }
      if (entry.isDirectory()) visit(child);
      else out.push(rel);
    }
  };
  visit(dir);
  return out.sort();
}
