// Content-addressed snapshots of a workspace: every file stored once by its
// sha256, a snapshot is a sorted manifest (itself stored by hash). Restorable
// and diffable; symlinks are never followed.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import type { SnapshotFile } from '@assay/core';
import { listRegularFiles } from './list-regular-files.js';
import { casPath } from './trial-paths.js';
import { writeFileAtomic } from './write-file-atomic.js';

export interface Snapshot {
  manifestSha256: string;
  files: SnapshotFile[];
}

export function storeFile(resultsDir: string, abs: string): { sha256: string; size: number } {
  const bytes = readFileSync(abs);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const stored = casPath(resultsDir, sha256);
  if (!existsSync(stored)) {
    mkdirSync(path.dirname(stored), { recursive: true });
    copyFileSync(abs, `${stored}.tmp`);
    renameSync(`${stored}.tmp`, stored);
  }
  return { sha256, size: bytes.length };
}

export function snapshotWorkspace(resultsDir: string, dir: string): Snapshot {
  const files = listRegularFiles(dir).map((rel) => ({ path: rel, ...storeFile(resultsDir, path.join(dir, rel)) }));
  const manifest = JSON.stringify(files);
  const manifestSha256 = createHash('sha256').update(manifest).digest('hex');
  const stored = casPath(resultsDir, manifestSha256);
  if (!existsSync(stored)) writeFileAtomic(stored, manifest);
  return { manifestSha256, files };
}

/** Materialize the files of a snapshot under `prefix` (e.g. `outputs/`) into `dest`. */
export function restoreSnapshot(resultsDir: string, files: readonly SnapshotFile[], dest: string, prefix = ''): void {
  for (const f of files) {
    if (!f.path.startsWith(prefix)) continue;
    const target = path.join(dest, f.path.slice(prefix.length));
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(casPath(resultsDir, f.sha256), target);
  }
}
