import { statSync } from 'node:fs';
import path from 'node:path';
import { CliError } from './cli-error.js';
import { loadJobOrFail } from './job-input.js';

/** A job argument is a results folder, an s3:// results location, or a job YAML (whose results folder is used). */
export function resultsDirOf(arg: string, root: string): string {
  if (/^s3:\/\//i.test(arg)) return arg;
  try {
    if (statSync(arg).isDirectory()) return path.resolve(arg);
  } catch {
    throw new CliError(`${arg} is neither a results folder nor a job file`);
  }
  return loadJobOrFail(arg, root).resultsDir;
}
