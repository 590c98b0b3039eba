// Before a job runs again with `--retry`: every unit that will run again as a new attempt has
// what its last attempt left moved under `<unit>/attempts/<n>/` (docs/results-layout.md), so its
// failed record stays as history, no reader takes it for the current result, and the new attempt
// starts with nothing of the old one. Projects keep their subtask checkpoints (they resume from
// the last one); only their failure or cancellation note moves.
import { rmSync } from 'node:fs';
import type { RetryKind, TrialInput, TrialStatus } from '@assay/core';
import {
  ATTEMPTS_DIR,
  CANCELLED_FILE,
  INFRA_FAILURE_FILE,
  PROJECTS_PREFIX,
  RECORD_FILE,
  TRIALS_PREFIX,
  WORK_VOLUME_SUFFIX,
  attemptDirKey,
  openResultsStore,
  type ResultsStore,
} from '@assay/results';
import { trialPaths } from './trial-paths.js';
import { unmountWorkVolume } from './workspace-volume.js';

/** The files that decide whether a unit runs again. */
const MARKERS = [RECORD_FILE, INFRA_FAILURE_FILE, CANCELLED_FILE];

/** Unit folders (`trials/s/t/n`, `projects/s/p/n`) whose last attempt ended as `retry` asks; returns them. */
export async function archiveForRetry(args: { resultsDir: string; retry: RetryKind[] }): Promise<string[]> {
  const store = openResultsStore(args.resultsDir);
  const archived: string[] = [];
  for (const prefix of [TRIALS_PREFIX, PROJECTS_PREFIX]) {
    const files = new Map<string, Set<string>>();
    for (const key of await store.list(prefix)) {
      const parts = key.split('/');
      if (parts.length < 5 || parts[4] === ATTEMPTS_DIR) continue;
      // A project's subtasks/ stay (it resumes from them); a trial's own folders go with it (a Harbor
      // trial's steps/<name>/: a retry that found them would take the old steps as finished).
      if (parts.length > 5 && prefix !== TRIALS_PREFIX) continue;
      const dir = parts.slice(0, 4).join('/');
      files.set(dir, (files.get(dir) ?? new Set()).add(parts.slice(4).join('/')));
    }
    for (const [dir, names] of files) {
      const status = names.has(RECORD_FILE)
        ? ((await store.getJson(`${dir}/${RECORD_FILE}`)) as { status?: TrialStatus }).status
        : undefined;
      const again =
        (names.has(RECORD_FILE) &&
          ((status === 'infra-failed' && args.retry.includes('infra-failed')) ||
            ((status === 'agent-failed' || status === 'agent-timeout') && args.retry.includes('agent-failed')))) ||
        (!names.has(RECORD_FILE) && (names.has(INFRA_FAILURE_FILE) || names.has(CANCELLED_FILE)));
      if (!again) continue;
      const only = prefix === TRIALS_PREFIX ? null : [INFRA_FAILURE_FILE, CANCELLED_FILE];
      await moveToAttempt(store, dir, [...names], only);
      if (prefix === TRIALS_PREFIX) discardTrialWork(args.resultsDir, dir);
      archived.push(dir);
    }
  }
  return archived;
}

/**
 * The unit folder's own files (or only `only`) into its next attempts/<n>/, by store copies and
 * deletes so it works on any backend. Safe to repeat after a crash: copies write the same bytes,
 * and the files that decide whether a unit runs again (its record, its failure note) move last,
 * so an interrupted archive is found again and finishes into the same attempts/<n>/.
 */
async function moveToAttempt(store: ResultsStore, dir: string, names: string[], only: string[] | null): Promise<void> {
  const n = await nextAttempt(store, dir);
  const moving = names.filter((name) => only === null || only.includes(name));
  const ordered = [...moving.filter((m) => !MARKERS.includes(m)), ...moving.filter((m) => MARKERS.includes(m))];
  for (const name of ordered) {
    await store.copy(`${dir}/${name}`, `${attemptDirKey(dir, n)}/${name}`);
    await store.delete(`${dir}/${name}`);
  }
}

/** One past the last finished attempt; an attempt folder without any marker is an interrupted archive: reused. */
async function nextAttempt(store: ResultsStore, dir: string): Promise<number> {
  const byAttempt = new Map<number, Set<string>>();
  for (const key of await store.list(`${dir}/${ATTEMPTS_DIR}`)) {
    const [n = '', name = ''] = key.slice(dir.length + ATTEMPTS_DIR.length + 2).split('/');
    if (/^[1-9][0-9]*$/.test(n)) byAttempt.set(Number(n), (byAttempt.get(Number(n)) ?? new Set()).add(name));
  }
  const last = Math.max(0, ...byAttempt.keys());
  const lastNames = byAttempt.get(last);
  return lastNames && !MARKERS.some((m) => lastNames.has(m)) ? last : last + 1;
}

/** A task trial's local work, gone: a new attempt starts from the inputs. */
function discardTrialWork(resultsDir: string, dir: string): void {
  const [, system = '', taskId = '', trial = ''] = dir.split('/');
  discardWorkDir(
    trialPaths({ resultsDir, system: { id: system } as TrialInput['system'], taskId, trial: Number(trial) }).workDir,
  );
}

/** A task trial's work volume, its image and its folder, gone: the next attempt makes new ones. */
export function discardWorkDir(workDir: string): void {
  unmountWorkVolume(workDir);
  rmSync(`${workDir}${WORK_VOLUME_SUFFIX}`, { force: true });
  rmSync(workDir, { recursive: true, force: true });
}
