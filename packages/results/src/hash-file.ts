import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { BlobRef } from './results-store.js';

/** The sha256 and size of a local file, streamed. */
export async function hashFile(file: string): Promise<BlobRef> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest('hex'), size };
}
