// Before a job runs again with `--retry`: every unit that will run again as a new attempt has
// what its last attempt left moved under `<unit>/attempts/<n>/` (README "Results layout"), so its
// failed record stays as history, no reader takes it for the current result, and the new attempt
// starts with nothing of the old one. Projects keep their subtask checkpoints (they resume from
// the last one); only their failure or cancellation note moves.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { RetryKind, TrialInput, TrialStatus } from '@assay/core';
import {
  ATTEMPTS_DIR,
  CANCELLED_FILE,
  PROJECTS_PREFIX,
  RECORD_FILE,
  TRIALS_PREFIX,
  attemptDirKey,
  openResultsStore,
} from '@assay/results';
import { trialPaths } from './trial-paths.js';
import { unmountWorkVolume } from './workspace-volume.js';

const INFRA_FAILURE_FILE = 'infra-failure.json';

/** Unit folders (`trials/s/t/n`, `projects/s/p/n`) whose last attempt ended as `retry` asks; returns them. */
export async function archiveForRetry(args: { resultsDir: string; retry: RetryKind[] }): Promise<string[]> {
  const store = openResultsStore(args.resultsDir);
  const archived: string[] = [];
  for (const prefix of [TRIALS_PREFIX, PROJECTS_PREFIX]) {
    const files = new Map<string, Set<string>>();
    for (const key of await store.list(prefix)) {
      const parts = key.split('/');
      if (parts.length !== 5) continue; // files of the unit folder itself, not of attempts/ or subtasks/
      const dir = parts.slice(0, 4).join('/');
      files.set(dir, (files.get(dir) ?? new Set()).add(parts[4] ?? ''));
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
      moveToAttempt(args.resultsDir, dir, prefix === TRIALS_PREFIX ? null : [INFRA_FAILURE_FILE, CANCELLED_FILE]);
      archived.push(dir);
    }
  }
  return archived;
}

/**
 * The unit folder's own files (or only `only`) into its next attempts/<n>/, and for a task trial
 * its work volume removed (a new attempt starts from the inputs). The results folder is local
 * to the worker here, as for the transcript and agent result the harness writes.
 */
function moveToAttempt(resultsDir: string, dir: string, only: string[] | null): void {
  const local = path.join(resultsDir, dir);
  const attemptsDir = path.join(local, ATTEMPTS_DIR);
  const n = existsSync(attemptsDir) ? readdirSync(attemptsDir).length + 1 : 1;
  const target = path.join(resultsDir, attemptDirKey(dir, n));
  mkdirSync(target, { recursive: true });
  for (const name of readdirSync(local)) {
    if (name === ATTEMPTS_DIR || (only && !only.includes(name))) continue;
    renameSync(path.join(local, name), path.join(target, name));
  }
  if (only) return;
  const [, system = '', taskId = '', trial = ''] = dir.split('/');
  discardWorkDir(
    trialPaths({ resultsDir, system: { id: system } as TrialInput['system'], taskId, trial: Number(trial) }).workDir,
  );
}

/** A task trial's work volume, its image and its folder, gone: the next attempt makes new ones. */
export function discardWorkDir(workDir: string): void {
  unmountWorkVolume(workDir);
  rmSync(`${workDir}.ext4`, { force: true });
  rmSync(workDir, { recursive: true, force: true });
}
