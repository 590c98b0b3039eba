// Local paths of a trial on the worker: its capped work volume and where the harness writes
// its transcript. Keys of what is recorded are @assay/results' business.
import path from 'node:path';
import type { TrialInput } from '@assay/core';
import { scratchRootOf } from '@assay/results';

export interface TrialPaths {
  /** Local scratch of the trial's results (the harness's session state); its folder in a folder store. */
  dir: string;
  /** Scratch area of the trial: the mounted workspace and the instruction folder. */
  workDir: string;
  workspace: string;
  instructionDir: string;
  preparedMarker: string;
}

export function trialPaths(t: Pick<TrialInput, 'resultsDir' | 'system' | 'taskId' | 'trial'>): TrialPaths {
  const root = scratchRootOf(t.resultsDir);
  const dir = path.join(root, 'trials', t.system.id, t.taskId, String(t.trial));
  const workDir = path.join(root, 'work', t.system.id, t.taskId, String(t.trial));
  return {
    dir,
    workDir,
    workspace: path.join(workDir, 'workspace'),
    instructionDir: path.join(workDir, 'assay'),
    preparedMarker: path.join(workDir, '.prepared'),
  };
}
