// `<results>/job-lock.json` read back: the one reader every command uses. `run` and `judge` must not go on
// over a lock they cannot read (strict); summaries, reports and the viewer then split records by the latest
// record's version instead (null).
import { jobLockSchema, type JobLock } from '@assay/core';
import { jobLockKey } from './results-layout.js';
import type { ResultsStore } from './results-store.js';

export class JobLockError extends Error {
  override name = 'JobLockError';
}

/** The lock, or null before the job's first run; `strict`: a lock that cannot be read or parsed throws, else null. */
export async function readJobLock(store: ResultsStore, opts: { strict: boolean }): Promise<JobLock | null> {
  let raw: unknown;
  try {
    raw = await store.getJson(jobLockKey());
  } catch (err) {
    if (!opts.strict) return null;
    throw new JobLockError((err as Error).message);
  }
  if (raw === null) return null;
  const parsed = jobLockSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  if (!opts.strict) return null;
  const issue = parsed.error.issues[0];
  throw new JobLockError(`${issue?.path.join('.')}: ${issue?.message}`);
}
