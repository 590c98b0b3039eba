// A model CLI's session folder on a Harbor trial (mounted at /session, the CLI's HOME and session state), one per
// step of a multi-step task. A step that resumes (Harbor's resume_trajectory) starts with a copy of the previous
// step's folder, so its CLI continues that session; the previous step's own folder is never written again, so a
// step started again after a lost container copies the same state, and usage and the trajectory count only what
// the step itself appended (the copy is the state before its run).
import { cpSync, existsSync, lstatSync, rmSync } from 'node:fs';
import path from 'node:path';

export interface HarborSessionPaths {
  /** The host folder mounted at /session. */
  sessionDir: string;
  /** The run's pre-run state (file sizes), kept beside the folder so a re-attaching worker measures from it. */
  stateFile: string;
}

/** A single-step trial's folder, or step `stepName`'s own. */
export function harborSessionPaths(workDir: string, stepName?: string): HarborSessionPaths {
  if (stepName === undefined)
    return {
      sessionDir: path.join(workDir, 'harbor-session'),
      stateFile: path.join(workDir, 'harbor-session-state.json'),
    };
  const root = path.join(workDir, 'harbor-session-steps');
  return { sessionDir: path.join(root, stepName), stateFile: path.join(root, `${stepName}.state.json`) };
}

/**
 * Before a new container (never on re-attach): nothing of an earlier attempt's run may be continued or counted,
 * so the folder starts empty, or, for a step that resumes, as the previous step's run left its folder.
 */
export function startHarborSession(paths: HarborSessionPaths, resumeFrom: HarborSessionPaths | null): void {
  rmSync(paths.sessionDir, { recursive: true, force: true });
  rmSync(paths.stateFile, { force: true });
  // No previous folder: the step starts in an empty one, where its CLI's resume argv finds nothing to continue.
  if (!resumeFrom || !existsSync(resumeFrom.sessionDir)) return;
  // Timestamps kept: a CLI that picks its latest session (`--resume latest`, `resume --last`) may go by them.
  cpSync(resumeFrom.sessionDir, paths.sessionDir, {
    recursive: true,
    preserveTimestamps: true,
    verbatimSymlinks: true,
    force: true,
    errorOnExist: false,
    // A socket or FIFO a CLI left (a lock, an IDE channel) is no session state, and cannot be copied.
    filter: (src) => {
      const st = lstatSync(src);
      return !st.isSocket() && !st.isFIFO();
    },
  });
}
