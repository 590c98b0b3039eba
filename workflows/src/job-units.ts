// The units (task trials and project trials) of a job, and which of them still have to run.
import {
  projectTrialKey,
  trialKey,
  unitSettings,
  type JobInput,
  type ProjectTrialInput,
  type TrialInput,
} from './definitions.js';

export type Unit = TrialInput | ProjectTrialInput;

export function unitKey(unit: Unit): string {
  return 'taskId' in unit
    ? trialKey(unit.system.id, unit.taskId, unit.trial)
    : projectTrialKey(unit.system.id, unit.projectId, unit.trial);
}

/** Every unit of the job in a stable order, and those neither recorded nor failed in an earlier run. */
export function planUnits(
  input: JobInput,
  finished: Set<string>,
  failedBefore: Set<string>,
): { total: number; recorded: number; pending: Unit[] } {
  const all: Unit[] = [];
  for (const system of input.systems) {
    for (const taskId of input.taskIds)
      for (let trial = 1; trial <= input.trials; trial++) all.push({ ...unitSettings(input, system, trial), taskId });
    for (const projectId of input.projectIds)
      for (let trial = 1; trial <= input.trials; trial++)
        all.push({ ...unitSettings(input, system, trial), projectId });
  }
  const pending = all.filter((u) => !finished.has(unitKey(u)) && !failedBefore.has(unitKey(u)));
  return { total: all.length, recorded: all.filter((u) => finished.has(unitKey(u))).length, pending };
}

/** Index of the first unit in `units[from, to)` that may start now, or -1. */
export function findStartable(units: readonly Unit[], from: number, to: number, fits: (u: Unit) => boolean): number {
  for (let i = from; i < to; i++) {
    const u = units[i];
    if (u && fits(u)) return i;
  }
  return -1;
}
