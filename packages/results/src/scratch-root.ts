// Where a worker keeps the local scratch of a results location: work volumes, the harness's
// session state, page images as rendered. For a folder that is the folder itself (its layout
// as it always was); for a remote store a folder per location under the worker's work root.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseS3Location } from './parse-s3-location.js';

export function isRemoteLocation(location: string): boolean {
  return /^s3:\/\//i.test(location);
}

/** `ASSAY_WORK_ROOT` (default `.assay/work` in the working directory) holds remote locations' scratch. */
export function scratchRootOf(location: string, env: NodeJS.ProcessEnv = process.env): string {
  if (!isRemoteLocation(location))
    return path.resolve(/^file:\/\//i.test(location) ? fileURLToPath(location) : location);
  const { bucket, prefix } = parseS3Location(location);
  const workRoot = path.resolve(env.ASSAY_WORK_ROOT ?? path.join('.assay', 'work'));
  return path.join(workRoot, 's3', bucket, ...prefix.split('/').filter((p) => p !== ''));
}
