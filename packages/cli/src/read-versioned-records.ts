// The records a summary shows: trial and project records, split by the content version of their unit
// (core's splitByVersion), with one line per unit that had records of more than one version.
import { describeVersionSplit, splitByVersion, type JobLock, type ProjectRecord, type TrialRecord } from '@assay/core';
import { readJobLock, readProjectRecords, readTrialRecords, type ResultsStore } from '@assay/results';

export interface VersionedRecords {
  trials: TrialRecord[];
  projects: ProjectRecord[];
  /** `tasks/x has records of 2 versions: ...`, one per split unit. */
  notes: string[];
  lock: JobLock | null;
}

/** Invalid records are left out, as summaries always did. */
export async function readVersionedRecords(store: ResultsStore): Promise<VersionedRecords> {
  const [lock, trials, projects] = await Promise.all([
    readJobLock(store, { strict: false }),
    readTrialRecords(store, { problems: [] }),
    readProjectRecords(store, { problems: [] }),
  ]);
  const t = splitByVersion(trials, lock);
  const p = splitByVersion(projects, lock);
  const notes = [...t.splits, ...p.splits].map(describeVersionSplit);
  return { trials: t.records, projects: p.records, notes, lock };
}
