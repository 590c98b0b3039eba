import path from 'node:path';
import type { ProjectTrialInput } from '@assay/core';
import { EVAL_SCRATCH_SUFFIX, PROJECTS_PREFIX, SUBTASKS_DIR } from '@assay/results';
import { scratchOf, workBase } from './trial-paths.js';

/**
 * Local paths of one project trial on the worker (record keys are @assay/results' business);
 * `workRoot` as for trialPaths.
 */
export function projectPaths(
  p: Pick<ProjectTrialInput, 'resultsDir' | 'system' | 'projectId' | 'trial'> & { jobId?: string },
  workRoot?: string,
) {
  const dir = path.join(scratchOf(p.resultsDir, workRoot), PROJECTS_PREFIX, p.system.id, p.projectId, String(p.trial));
  const workDir = path.join(workBase(p, workRoot), 'projects', p.system.id, p.projectId, String(p.trial));
  return {
    dir,
    subtaskDir: (id: string) => path.join(dir, SUBTASKS_DIR, id),
    workDir,
    workspace: path.join(workDir, 'workspace'),
    instructionDir: path.join(workDir, 'assay'),
    preparedMarker: path.join(workDir, '.prepared'),
    /** Scratch for restored submissions under evaluation: beside the capped volume, never inside it. */
    evalDir: `${workDir}${EVAL_SCRATCH_SUFFIX}`,
  };
}
