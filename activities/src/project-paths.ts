import path from 'node:path';
import type { ProjectTrialInput } from '@assay/core';
import { scratchRootOf } from '@assay/results';

/** Local paths of one project trial on the worker (record keys are @assay/results' business). */
export function projectPaths(p: Pick<ProjectTrialInput, 'resultsDir' | 'system' | 'projectId' | 'trial'>) {
  const root = scratchRootOf(p.resultsDir);
  const dir = path.join(root, 'projects', p.system.id, p.projectId, String(p.trial));
  const workDir = path.join(root, 'work', 'projects', p.system.id, p.projectId, String(p.trial));
  return {
    dir,
    subtaskDir: (id: string) => path.join(dir, 'subtasks', id),
    workDir,
    workspace: path.join(workDir, 'workspace'),
    instructionDir: path.join(workDir, 'assay'),
    preparedMarker: path.join(workDir, '.prepared'),
    /** Scratch for restored submissions under evaluation: beside the capped volume, never inside it. */
    evalDir: `${workDir}.eval`,
  };
}
