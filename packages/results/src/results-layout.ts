// The key scheme of a job's results (`assay.results/v1`, README "Results layout"), in one place.
// Keys are forward-slash paths relative to the results root, whatever the backend.
import { projectTrialKey, trialKey } from '@assay/core';

export const RESULTS_LAYOUT_VERSION = 'assay.results/v1';

export const TRIALS_PREFIX = 'trials';
export const PROJECTS_PREFIX = 'projects';
export const CAS_PREFIX = 'cas/sha256';
export const JUDGES_PREFIX = 'judges';
/** People's reviews of items (assay.review/v1), one object each: reviews/<reviewer>/<time>-<id>.json. */
export const REVIEWS_PREFIX = 'reviews';
export const RECORD_FILE = 'record.json';
/** Beside a unit's record folder: why it has no record (`assay cancel`). */
export const CANCELLED_FILE = 'cancelled.json';

const SHA256 = /^[0-9a-f]{64}$/;

/** One path segment taken from an id: anything that would change the key's shape is refused. */
function segment(kind: string, value: string): string {
  if (value === '' || value === '.' || value === '..' || /[/\\]/.test(value))
    throw new Error(`${kind} "${value}" cannot be used in a results key (empty, "." or "..", or contains a slash)`);
  return value;
}

function trialNumber(trial: number): number {
  if (!Number.isInteger(trial) || trial < 1) throw new Error(`trial must be a positive integer, got ${trial}`);
  return trial;
}

export function jobKey(): string {
  return 'job.json';
}

/** What the job's records were produced from (assay.job-lock/v1): checked by every later run. */
export function jobLockKey(): string {
  return 'job-lock.json';
}

/**
 * One review: its own object, so concurrent reviewers never write the same key. The time first (colons and dots
 * made dashes) so a reviewer's keys list in the order they were made.
 */
export function reviewKey(reviewer: string, at: string, id: string): string {
  const time = at.replace(/[:.]/g, '-');
  return `${REVIEWS_PREFIX}/${segment('reviewer', reviewer)}/${segment('review time', time)}-${segment('review id', id)}.json`;
}

/** The job's control state (assay.job-control/v1), written by its workflow whenever it changes. */
export function jobControlKey(): string {
  return 'job-control.json';
}

export function trialDirKey(system: string, task: string, trial: number): string {
  return `${TRIALS_PREFIX}/${trialKey(segment('system id', system), segment('task id', task), trialNumber(trial))}`;
}

export function trialRecordKey(system: string, task: string, trial: number): string {
  return `${trialDirKey(system, task, trial)}/${RECORD_FILE}`;
}

export function projectDirKey(system: string, project: string, trial: number): string {
  const id = projectTrialKey(segment('system id', system), segment('project id', project), trialNumber(trial));
  return `${PROJECTS_PREFIX}/${id}`;
}

export function projectRecordKey(system: string, project: string, trial: number): string {
  return `${projectDirKey(system, project, trial)}/${RECORD_FILE}`;
}

export function subtaskDirKey(system: string, project: string, trial: number, subtask: string): string {
  return `${projectDirKey(system, project, trial)}/subtasks/${segment('subtask id', subtask)}`;
}

/** Earlier attempts of a unit, kept when it runs again (`assay run --retry`): `<unit>/attempts/<n>/`. */
export const ATTEMPTS_DIR = 'attempts';

export function attemptDirKey(unitDirKey: string, attempt: number): string {
  return `${unitDirKey}/${ATTEMPTS_DIR}/${trialNumber(attempt)}`;
}

/** `trials/…/cancelled.json` or `projects/…/cancelled.json`: a unit `assay cancel` stopped. */
export function cancelledKey(kind: 'task' | 'project', system: string, unit: string, trial: number): string {
  const dir = kind === 'task' ? trialDirKey(system, unit, trial) : projectDirKey(system, unit, trial);
  return `${dir}/${CANCELLED_FILE}`;
}

/** The snapshot manifest (path, sha256, size) of one subtask's checkpoint. */
export function checkpointKey(system: string, project: string, trial: number, subtask: string): string {
  return `${subtaskDirKey(system, project, trial, subtask)}/checkpoint.json`;
}

export function assertSha256(sha256: string): string {
  if (!SHA256.test(sha256)) throw new Error(`"${sha256}" is not a sha256 (64 lowercase hex digits)`);
  return sha256;
}

export function casKey(sha256: string): string {
  return `${CAS_PREFIX}/${assertSha256(sha256).slice(0, 2)}/${sha256}`;
}

/** Root of records re-judged by `assay judge --name <name>`: the same layout below it. */
export function judgeRootKey(name: string): string {
  return `${JUDGES_PREFIX}/${segment('judge name', name)}`;
}

/** `trials/<system>/<task>/<trial>/record.json`, exactly. */
export function isTrialRecordKey(key: string): boolean {
  return isRecordKey(key, TRIALS_PREFIX);
}

/** `projects/<system>/<project>/<trial>/record.json`, exactly (not the files under subtasks/). */
export function isProjectRecordKey(key: string): boolean {
  return isRecordKey(key, PROJECTS_PREFIX);
}

function isRecordKey(key: string, prefix: string): boolean {
  const parts = key.split('/');
  return parts.length === 5 && parts[0] === prefix && parts[4] === RECORD_FILE;
}
