// A project's workspace made again on a host that has none for this run (it moved here, or runs
// again): the newest preserved checkpoint's snapshot restored into it, and agent runs of later
// subtasks that left no checkpoint set aside, since their outputs went with the old workspace.
import { existsSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import type { LoadedProject } from '@assay/benchmark';
import type { ProjectTrialInput } from '@assay/core';
import { attemptDirKey, checkpointKey, restoreSnapshot, subtaskDirKey, type Snapshot } from '@assay/results';
import type { ProjectContext } from './project-context.js';
import { allSubtasks } from './project-evaluation.js';

/** What the harness leaves beside a subtask's checkpoint while its agent runs. */
const AGENT_FILES = ['agent-result.json', 'transcript.log', 'session-state.json', 'host.txt'];

/** Restores into `workspace`; returns the subtask whose checkpoint it restored, or null (none yet). */
export async function restoreProjectWorkspace(
  ctx: ProjectContext,
  input: ProjectTrialInput,
  project: LoadedProject,
  workspace: string,
): Promise<string | null> {
  const store = ctx.storeOf(input);
  const ids = allSubtasks(project);
  let restored: { id: string; snapshot: Snapshot } | null = null;
  for (const id of ids) {
    const snapshot = (await store.getJson(
      checkpointKey(input.system.id, input.projectId, input.trial, id),
    )) as Snapshot;
    if (snapshot) restored = { id, snapshot };
  }
  if (restored) await restoreSnapshot(store, restored.snapshot.files, workspace);
  const after = restored ? ids.indexOf(restored.id) + 1 : 0;
  for (const id of ids.slice(after)) setAsideAgentRun(input, id);
  return restored?.id ?? null;
}

/** An agent run without a checkpoint goes under the subtask's attempts/: the subtask runs again. */
function setAsideAgentRun(input: ProjectTrialInput, subtaskId: string): void {
  const dirKey = subtaskDirKey(input.system.id, input.projectId, input.trial, subtaskId);
  const dir = path.join(input.resultsDir, dirKey);
  if (!existsSync(path.join(dir, 'agent-result.json'))) return;
  const attempts = path.join(dir, 'attempts');
  const n = existsSync(attempts) ? readdirSync(attempts).length + 1 : 1;
  const target = path.join(input.resultsDir, attemptDirKey(dirKey, n));
  mkdirSync(target, { recursive: true });
  for (const name of AGENT_FILES)
    if (existsSync(path.join(dir, name))) renameSync(path.join(dir, name), path.join(target, name));
}
