// The job lock at `run`: the units this run would start, by content, against `<results>/job-lock.json`. A unit
// whose content changed since the job's records were made is refused before anything is submitted or written,
// one line per unit naming what changed; `--accept-changes` records the new version instead (trials run from
// now on carry its digest, those before keep theirs). The lock itself is written with job.json, once the run
// is sure to start.
import {
  acceptUnits,
  changedSetup,
  changedUnits,
  describeUnitChange,
  projectUnitKey,
  taskUnitKey,
  type JobLock,
  type UnitVersion,
} from '@assay/core';
import {
  digestProject,
  digestSpec,
  digestTask,
  pinSetup,
  selectProjects,
  selectTasks,
  type LoadedJob,
} from '@assay/benchmark';
import { JobLockError, jobLockKey, openResultsStore, readJobLock } from '@assay/results';
import { CliError } from './cli-error.js';
import { messages } from './messages.js';

/** The content version of every unit the job would run, by lock key. */
function unitVersionsOf(job: LoadedJob): Record<string, UnitVersion> {
  const units: Record<string, UnitVersion> = {};
  for (const t of selectTasks(job)) units[taskUnitKey(t.spec.id)] = digestTask(t);
  for (const p of selectProjects(job)) units[projectUnitKey(p.spec.id)] = digestProject(p);
  return units;
}

/** The lock as stored, or null before the job's first run; a lock that cannot be read is refused by name. */
export async function readJobLockOrFail(job: LoadedJob): Promise<JobLock | null> {
  const store = openResultsStore(job.resultsDir);
  try {
    return await readJobLock(store, { strict: true });
  } catch (err) {
    if (err instanceof JobLockError) throw new CliError(messages.jobLockUnreadable(store.location, err.message));
    throw err;
  }
}

/**
 * The lock this run writes, or a refusal listing every change. `accept`: changed units are taken as new
 * versions (the old ones kept as superseded). A system changed under its id, or changed conditions (judge,
 * limits, resources), are refused whatever `accept` says: records are told apart by unit version, not by
 * these, so accepting them would pool what the lock is there to keep apart.
 */
export async function checkJobLock(job: LoadedJob, accept: boolean): Promise<JobLock> {
  const units = unitVersionsOf(job);
  const setup = pinSetup(job.spec);
  const lock = await readJobLockOrFail(job);
  const setupChanges = lock ? changedSetup(lock, setup) : [];
  if (setupChanges.length > 0)
    throw new CliError(messages.setupChanged(job.spec.id), 1, setupChanges.map(describeUnitChange));
  const changes = lock ? changedUnits(lock, units) : [];
  if (changes.length > 0 && !accept)
    throw new CliError(messages.unitsChanged(changes.length, job.spec.id), 1, changes.map(describeUnitChange));
  const specDigest = digestSpec(job.spec);
  return acceptUnits(lock, { jobId: job.spec.id, specDigest, units, setup }, new Date().toISOString());
}

export async function writeJobLock(job: LoadedJob, lock: JobLock): Promise<void> {
  await openResultsStore(job.resultsDir).putJson(jobLockKey(), lock);
}
