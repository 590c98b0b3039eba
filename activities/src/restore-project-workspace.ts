// A project's workspace made again on a host that has none for this run (it moved here, or runs
// again): the newest preserved checkpoint's snapshot restored into it, and agent runs of later
// subtasks that left no checkpoint set aside, since their outputs went with the old workspace.
import type { LoadedProject } from '@assay/benchmark';
import type { ProjectTrialInput } from '@assay/core';
import {
  AGENT_RESULT_FILE,
  ATTEMPTS_DIR,
  HOST_FILE,
  SESSION_STATE_FILE,
  STOPPED_FILE,
  TRANSCRIPT_FILE,
  TRAJECTORY_FILE,
  attemptDirKey,
  checkpointKey,
  restoreSnapshot,
  subtaskDirKey,
  type ResultsStore,
  type Snapshot,
} from '@assay/results';
import type { ProjectContext } from './project-context.js';
import { allSubtasks } from './project-evaluation.js';

/** What the harness leaves beside a subtask's checkpoint while its agent runs. */
const AGENT_FILES = [AGENT_RESULT_FILE, TRANSCRIPT_FILE, TRAJECTORY_FILE, SESSION_STATE_FILE, HOST_FILE];
/** Either marks an attempt that ended (finished, or stopped); it moves last. */
const ENDED = [AGENT_RESULT_FILE, STOPPED_FILE];

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
  for (const id of ids.slice(after)) await setAsideAgentRun(store, input, id);
  return restored?.id ?? null;
}

/**
 * An agent run without a checkpoint (finished, or stopped mid-way) goes under the subtask's
 * attempts/: the subtask runs again. Through the store (a remote one too); the file that marks
 * the attempt ended moves last, so a repeat after a crash part-way finishes the same attempt
 * instead of starting another.
 */
async function setAsideAgentRun(store: ResultsStore, input: ProjectTrialInput, subtaskId: string): Promise<void> {
  const dirKey = subtaskDirKey(input.system.id, input.projectId, input.trial, subtaskId);
  const ended = await asyncFilter(ENDED, (name) => store.has(`${dirKey}/${name}`));
  if (ended.length === 0) return;
  const attempts = await store.list(`${dirKey}/${ATTEMPTS_DIR}/`);
  const numbers = attempts.map((k) => Number(k.slice(dirKey.length + ATTEMPTS_DIR.length + 2).split('/')[0]));
  const unfinished = [...new Set(numbers)].find(
    (n) => !ENDED.some((f) => attempts.includes(`${attemptDirKey(dirKey, n)}/${f}`)),
  );
  const target = attemptDirKey(dirKey, unfinished ?? Math.max(0, ...numbers) + 1);
  for (const name of [...AGENT_FILES.filter((f) => !ENDED.includes(f)), ...ENDED]) {
    if (await store.copy(`${dirKey}/${name}`, `${target}/${name}`)) await store.delete(`${dirKey}/${name}`);
  }
}

async function asyncFilter<T>(items: T[], keep: (item: T) => Promise<boolean>): Promise<T[]> {
  const kept = await Promise.all(items.map(keep));
  return items.filter((_, i) => kept[i]);
}
