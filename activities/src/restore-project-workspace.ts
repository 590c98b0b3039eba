// A project's workspace made again on a host that has none for this run (it moved here, or runs
// again): the newest preserved checkpoint's snapshot restored into it, and agent runs of later
// subtasks that left no checkpoint set aside, since their outputs went with the old workspace.
import type { LoadedProject } from '@assay/benchmark';
import type { ProjectTrialInput } from '@assay/core';
import {
  ATTEMPTS_DIR,
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
  for (const id of ids.slice(after)) await setAsideAgentRun(store, input, id);
  return restored?.id ?? null;
}

/**
 * An agent run without a checkpoint goes under the subtask's attempts/: the subtask runs again.
 * Through the store (a remote one too); agent-result.json moves last, so a repeat after a crash
 * part-way finishes the same attempt instead of starting another.
 */
async function setAsideAgentRun(store: ResultsStore, input: ProjectTrialInput, subtaskId: string): Promise<void> {
  const dirKey = subtaskDirKey(input.system.id, input.projectId, input.trial, subtaskId);
  if (!(await store.has(`${dirKey}/agent-result.json`))) return;
  const attempts = await store.list(`${dirKey}/${ATTEMPTS_DIR}/`);
  const numbers = attempts.map((k) => Number(k.slice(dirKey.length + ATTEMPTS_DIR.length + 2).split('/')[0]));
  const unfinished = [...new Set(numbers)].find(
    (n) => !attempts.includes(`${attemptDirKey(dirKey, n)}/agent-result.json`),
  );
  const target = attemptDirKey(dirKey, unfinished ?? Math.max(0, ...numbers) + 1);
  for (const name of [...AGENT_FILES.filter((f) => f !== 'agent-result.json'), 'agent-result.json']) {
    if (await store.copy(`${dirKey}/${name}`, `${target}/${name}`)) await store.delete(`${dirKey}/${name}`);
  }
}
