// The results folder must be a real, writable folder before a job is submitted: under /proc, /sys or
// /dev the run's first mkdir never settles, and a read-only or file-blocked path fails only after
// agents ran. Checked by writing and removing a probe file where the folder is (or will be made).
import { lstatSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { errorText } from './error-text.js';
import { messages } from './messages.js';
import { isInside } from './paths.js';

const KERNEL_FILESYSTEMS = ['/proc', '/sys', '/dev'];

const kernelFs = (abs: string): string | undefined => KERNEL_FILESYSTEMS.find((k) => isInside(k, abs));

function exists(abs: string): boolean {
  try {
    lstatSync(abs);
    return true;
  } catch {
    return false;
  }
}

/**
 * Why results cannot be written to `dir` (absolute), or null. An s3:// location is not a folder:
 * the results store checks it (bucket, credentials, endpoint) before a job is submitted.
 */
export function resultsDirProblem(dir: string): string | null {
  if (/^s3:\/\//i.test(dir)) return null;
  const literal = kernelFs(dir);
  if (literal) return messages.resultsOnKernelFs(dir, literal);
  let existing = dir;
  while (!exists(existing)) existing = path.dirname(existing);
  let real: string;
  try {
    real = realpathSync(existing);
  } catch (err) {
    return messages.resultsNotWritable(dir, errorText(err));
  }
  const linked = kernelFs(real);
  if (linked) return messages.resultsOnKernelFs(dir, linked);
  if (!statSync(real).isDirectory())
    return existing === dir ? messages.resultsNotAFolder(dir) : messages.resultsUnderFile(dir, existing);
  const probe = path.join(real, `.assay-write-probe-${process.pid}-${Date.now()}`);
  try {
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (err) {
    return messages.resultsNotWritable(dir, errorText(err));
  }
  return null;
}
