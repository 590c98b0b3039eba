// The records a summary shows: trial and project records, split by the content version of their unit
// (core's splitByVersion), with one line per unit that had records of more than one version.
import {
  describeVersionSplit,
  jobLockSchema,
  splitByVersion,
  type JobLock,
  type ProjectRecord,
  type TrialRecord,
} from '@assay/core';
import { jobLockKey, readProjectRecords, readTrialRecords, type ResultsStore } from '@assay/results';

export interface VersionedRecords {
  trials: TrialRecord[];
  projects: ProjectRecord[];
  /** `tasks/x has records of 2 versions: ...`, one per split unit. */
  notes: string[];
}

/** The job lock as stored, or null (absent, or unreadable: a summary then splits by the latest record). */
export async function readLockQuietly(store: ResultsStore): Promise<JobLock | null> {
  const raw = await store.getJson(jobLockKey()).catch(() => null);
  const parsed = jobLockSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** Invalid records are left out, as summaries always did. */
export async function readVersionedRecords(store: ResultsStore): Promise<VersionedRecords> {
  const [lock, trials, projects] = await Promise.all([
    readLockQuietly(store),
    readTrialRecords(store, { problems: [] }),
    readProjectRecords(store, { problems: [] }),
  ]);
  const t = splitByVersion(trials, lock);
  const p = splitByVersion(projects, lock);
  return { trials: t.records, projects: p.records, notes: [...t.splits, ...p.splits].map(describeVersionSplit) };
}
