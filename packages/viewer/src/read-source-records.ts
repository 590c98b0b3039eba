// The records of a source, read through the results store and re-read only when the set of
// record keys changed (a run in progress adds records; the front end polls the revision).
import { createHash } from 'node:crypto';
import type { JobLock, ProjectRecord, TrialRecord } from '@assay/core';
import {
  isProjectRecordKey,
  isTrialRecordKey,
  PROJECTS_PREFIX,
  REVIEWS_PREFIX,
  readJobLock,
  readProjectRecords,
  readTrialRecords,
  TRIALS_PREFIX,
  type RecordProblem,
} from '@assay/results';
import { jobControlRevision } from './read-job-control.js';
import { reviewStore } from './review-store.js';
import type { ViewerSource } from './viewer-source.js';

export interface SourceRecords {
  revision: string;
  trials: TrialRecord[];
  projects: ProjectRecord[];
  problems: RecordProblem[];
  /** The job lock (the current version of each unit), null when there is none or it cannot be read. */
  lock: JobLock | null;
}

const cache = new WeakMap<ViewerSource, SourceRecords>();

/** A hash of the record keys present now: changes when a record lands or goes. */
async function recordsRevision(source: ViewerSource): Promise<string> {
  const keys = [
    ...(await source.store.list(TRIALS_PREFIX)).filter(isTrialRecordKey),
    ...(await source.store.list(PROJECTS_PREFIX)).filter(isProjectRecordKey),
  ];
  return createHash('sha256').update(keys.join('\n')).digest('hex').slice(0, 16);
}

/** The records' revision, the job control file's and the reviews': the page reloads when any changed. */
export async function sourceRevision(source: ViewerSource): Promise<string> {
  const [records, control, reviews] = await Promise.all([
    recordsRevision(source),
    jobControlRevision(source),
    reviewStore(source).list(REVIEWS_PREFIX),
  ]);
  const more = [control ?? '', reviews.length > 0 ? reviews.join('\n') : ''];
  if (more.every((m) => m === '')) return records;
  return `${records}-${createHash('sha256').update(more.join('\u0000')).digest('hex').slice(0, 8)}`;
}

export async function readSourceRecords(source: ViewerSource): Promise<SourceRecords> {
  const revision = await recordsRevision(source);
  const cached = cache.get(source);
  if (cached?.revision === revision) return cached;
  // Invalid records are listed, not fatal: a viewer over a damaged folder still shows the rest.
  const problems: RecordProblem[] = [];
  const trials = await readTrialRecords(source.store, { problems });
  const projects = await readProjectRecords(source.store, { problems });
  const lock = await readJobLock(source.store, { strict: false });
  const records = { revision, trials, projects, problems, lock };
  cache.set(source, records);
  return records;
}
