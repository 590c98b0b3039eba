// Local paths of a trial on the worker: its capped work volume and where the harness writes
// its transcript. Keys of what is recorded are @assay/results' business.
import path from 'node:path';
import type { TrialInput } from '@assay/core';
import { TRIALS_PREFIX, WORK_DIR, scratchRootOf } from '@assay/results';

export interface TrialPaths {
  /** Local scratch of the trial's results (the harness's session state); its folder in a folder store. */
  dir: string;
  /** Scratch area of the trial: the mounted workspace and the instruction folder. */
  workDir: string;
  workspace: string;
  instructionDir: string;
  preparedMarker: string;
}

/**
 * `workRoot`: the worker's own scratch root (`assay worker --work-root`), shared by every job it
 * runs; without one, the job's results folder (or a remote store's local scratch) holds the work folders.
 */
export function trialPaths(
  t: Pick<TrialInput, 'resultsDir' | 'system' | 'taskId' | 'trial'> & { jobId?: string },
  workRoot?: string,
): TrialPaths {
  const dir = path.join(scratchOf(t.resultsDir, workRoot), TRIALS_PREFIX, t.system.id, t.taskId, String(t.trial));
  const workDir = path.join(workBase(t, workRoot), t.system.id, t.taskId, String(t.trial));
  return {
    dir,
    workDir,
    workspace: path.join(workDir, 'workspace'),
    instructionDir: path.join(workDir, 'assay'),
    preparedMarker: path.join(workDir, '.prepared'),
  };
}

/** Where a unit's work folders live on this worker: under its work root by job, else in the results folder. */
export function workBase(t: { resultsDir: string; jobId?: string }, workRoot?: string): string {
  if (!workRoot) return path.join(scratchRootOf(t.resultsDir), WORK_DIR);
  if (!t.jobId) throw new Error('a work root needs the job id to keep jobs apart');
  return path.join(workRoot, t.jobId);
}

/** The local scratch of a results location; a worker's work root also holds a remote store's. */
export function scratchOf(resultsDir: string, workRoot?: string): string {
  return scratchRootOf(resultsDir, workRoot ? { ...process.env, ASSAY_WORK_ROOT: workRoot } : process.env);
}
