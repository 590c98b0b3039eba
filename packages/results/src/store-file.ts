import { lstat } from 'node:fs/promises';
import type { BlobRef, ResultsStore } from './results-store.js';

/** Store one local regular file by content; a symlink or folder is refused, never followed. */
export async function storeFile(store: ResultsStore, localFile: string): Promise<BlobRef> {
  const stat = await lstat(localFile);
  if (!stat.isFile()) throw new Error(`${localFile} is not a regular file (symlinks are never stored)`);
  return store.putBlob(localFile);
}
