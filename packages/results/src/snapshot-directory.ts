// Content-addressed snapshot of a local folder: every regular file stored once by its
// sha256, the snapshot a sorted manifest (itself stored by hash). Symlinks and hard links are never followed.
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { SnapshotFile } from '@assay/core';
import { listRegularFiles } from './list-regular-files.js';
import { mapInBatches } from './map-in-batches.js';
import type { ResultsStore } from './results-store.js';
import { storeFile } from './store-file.js';

export interface Snapshot {
  manifestSha256: string;
  files: SnapshotFile[];
}

const PARALLEL_FILES = 8;

export async function snapshotDirectory(store: ResultsStore, dir: string): Promise<Snapshot> {
  // A file with more than one link may name something outside the folder: it is not preserved.
  const all = await listRegularFiles(dir);
  const links = await mapInBatches(all, PARALLEL_FILES, async (rel) => (await lstat(path.join(dir, rel))).nlink);
  const rels = all.filter((_rel, i) => links[i] === 1);
  const files = await mapInBatches(rels, PARALLEL_FILES, async (rel) => ({
    path: rel,
    ...(await storeFile(store, path.join(dir, ...rel.split('/')))),
  }));
  // The manifest's bytes (and so its hash) are what they were before this package existed.
  const manifest = await store.putBytes(Buffer.from(JSON.stringify(files)));
  return { manifestSha256: manifest.sha256, files };
}
