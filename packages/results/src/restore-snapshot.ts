import path from 'node:path';
import type { SnapshotFile } from '@assay/core';
import { mapInBatches } from './map-in-batches.js';
import type { ResultsStore } from './results-store.js';

const PARALLEL_FILES = 8;

/** Materialize the snapshot files under `prefix` (e.g. `outputs/`) into `destDir`, without the prefix. */
export async function restoreSnapshot(
  store: ResultsStore,
  files: readonly SnapshotFile[],
  destDir: string,
  prefix = '',
): Promise<void> {
  const chosen = files.filter((f) => f.path.startsWith(prefix));
  for (const f of chosen) assertInside(f.path);
  await mapInBatches(chosen, PARALLEL_FILES, (f) =>
    store.copyBlobTo(f.sha256, path.join(destDir, ...f.path.slice(prefix.length).split('/'))),
  );
}

/** A manifest is data read back from storage: a path in it must not reach outside the destination. */
function assertInside(rel: string): void {
  const parts = rel.split('/');
  if (rel.startsWith('/') || rel.includes('\\') || parts.some((p) => p === '' || p === '.' || p === '..'))
    throw new Error(`snapshot path ${JSON.stringify(rel)} is not a plain relative path; refusing to restore it`);
}
