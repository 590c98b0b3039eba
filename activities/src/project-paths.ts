import path from 'node:path';
import type { ProjectTrialInput } from '@assay/core';

/** Layout of one project trial under the job's results folder. */
export function projectPaths(p: Pick<ProjectTrialInput, 'resultsDir' | 'system' | 'projectId' | 'trial'>) {
  const dir = path.join(p.resultsDir, 'projects', p.system.id, p.projectId, String(p.trial));
  const workDir = path.join(p.resultsDir, 'work', 'projects', p.system.id, p.projectId, String(p.trial));
  return {
    dir,
    record: path.join(dir, 'record.json'),
    subtaskDir: (id: string) => path.join(dir, 'subtasks', id),
    finalDir: path.join(dir, 'final'),
    workDir,
    workspace: path.join(workDir, 'workspace'),
    instructionDir: path.join(workDir, 'assay'),
    preparedMarker: path.join(workDir, '.prepared'),
    /** Scratch for restored submissions under evaluation: beside the capped volume, never inside it. */
    evalDir: `${workDir}.eval`,
  };
}
