// A results location as the user writes it (a folder, a file: URL, an s3:// URL) to its store.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFsResultsStore } from './create-fs-results-store.js';
import { createS3ResultsStore } from './create-s3-results-store.js';
import type { ResultsStore } from './results-store.js';

export function openResultsStore(location: string): ResultsStore {
  if (location.trim() === '') throw new Error('results location is empty: give a folder path');
  if (/^s3:\/\//i.test(location)) return createS3ResultsStore(location);
  if (/^file:\/\//i.test(location)) return createFsResultsStore(fileURLToPath(location));
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location))
    throw new Error(`results location ${location}: unsupported scheme; use a local folder`);
  return createFsResultsStore(path.resolve(location));
}
