// `<results>/job-lock.json` (assay.job-lock/v1): the identity of what a job's records were produced from. The
// first `run` writes it; every later run compares the units it would run against it, so a trial of an edited
// task is never pooled with the trials of the task as it was. `--accept-changes` records the new version and
// keeps the old one under `superseded` (records still pinned to it stay readable, split by version).
import { z } from 'zod';
import { describeField, diffUnitVersions, unitVersionSchema, type UnitVersion } from './unit-version.js';

const JOB_LOCK_SCHEMA = 'assay.job-lock/v1' as const;

const lockedVersionSchema = unitVersionSchema.extend({ acceptedAt: z.string() });

/** Fields by dotted path (`model`, `settings.flaw`, `judge.mode`): short plain values as they are, the rest hashed. */
const fieldsSchema = z.record(z.string(), z.string());

/** What trials run under besides their unit: each system by id, and the conditions all share (judge, limits, resources). */
export const setupPinSchema = z.object({ systems: z.record(z.string(), fieldsSchema), conditions: fieldsSchema });
export type SetupPin = z.infer<typeof setupPinSchema>;

export const jobLockSchema = z.object({
  schema: z.literal(JOB_LOCK_SCHEMA),
  jobId: z.string(),
  /** The job file's spec digest as last run (kept to be shown: more trials or systems extend a job, not change it). */
  specDigest: z.string(),
  /** Units by key (`tasks/<id>`, `projects/<id>`): the version the job runs now. */
  units: z.record(z.string(), lockedVersionSchema),
  /**
   * Systems by id and the job's conditions as first run (absent in locks made before they were pinned: pinned at
   * the next run). A system removed from the job keeps its entry, so it cannot come back changed under its id.
   */
  systems: z.record(z.string(), fieldsSchema).optional(),
  conditions: fieldsSchema.optional(),
  /** Versions replaced with `--accept-changes`, oldest first. */
  superseded: z.array(lockedVersionSchema.extend({ unit: z.string(), supersededAt: z.string() })).default([]),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type JobLock = z.infer<typeof jobLockSchema>;

/** One unit whose content is no longer the locked one, and what changed in it. */
export interface UnitChange {
  unit: string;
  changes: string[];
}

export const taskUnitKey = (id: string): string => `tasks/${id}`;
export const projectUnitKey = (id: string): string => `projects/${id}`;

/** Units of `current` whose locked version differs (units new to the job are not changes: they extend it). */
export function changedUnits(lock: JobLock, current: Record<string, UnitVersion>): UnitChange[] {
  return Object.entries(current).flatMap(([unit, version]) => {
    const locked = lock.units[unit];
    if (!locked || locked.digest === version.digest) return [];
    const noun = unit.startsWith('projects/') ? 'criterion' : 'rubric item';
    return [{ unit, changes: diffUnitVersions(locked, version, noun) }];
  });
}

/**
 * Units whose records were made from another version than `current` (what `assay judge` would judge them
 * against now), once per unit and recorded version. The recorded version's items come from the lock (current
 * or superseded) when it has it; else only the parts can be compared. Records without a version are left out.
 */
export function changedSinceRecorded(
  pins: readonly { unit: string; digest: string; parts: Record<string, string> }[],
  lock: JobLock | null,
  current: Record<string, UnitVersion>,
): UnitChange[] {
  const seen = new Set<string>();
  const out: UnitChange[] = [];
  for (const pin of pins) {
    const now = current[pin.unit];
    if (!now || now.digest === pin.digest || seen.has(`${pin.unit} ${pin.digest}`)) continue;
    seen.add(`${pin.unit} ${pin.digest}`);
    const known = [lock?.units[pin.unit], ...(lock?.superseded ?? []).filter((s) => s.unit === pin.unit)].find(
      (v) => v?.digest === pin.digest,
    );
    const noun = pin.unit.startsWith('projects/') ? 'criterion' : 'rubric item';
    const parts = [...new Set([...Object.keys(pin.parts), ...Object.keys(now.parts)])];
    const changes = known
      ? diffUnitVersions(known, now, noun)
      : parts.filter((p) => pin.parts[p] !== now.parts[p]).map((p) => `${p} changed`);
    out.push({ unit: pin.unit, changes });
  }
  return out;
}

function diffFields(before: Record<string, string>, after: Record<string, string>): string[] {
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return fields.filter((f) => before[f] !== after[f]).map((f) => describeField(f, before[f], after[f]));
}

/**
 * Systems changed under their id (`systems/claude-code: model a → b`) and changed conditions
 * (`job: judge.mode checks-only → agent`). New systems are not changes: they extend the job.
 */
export function changedSetup(lock: JobLock, current: SetupPin): UnitChange[] {
  const out: UnitChange[] = [];
  for (const [id, fields] of Object.entries(current.systems)) {
    const locked = lock.systems?.[id];
    const changes = locked ? diffFields(locked, fields) : [];
    if (changes.length > 0) out.push({ unit: `systems/${id}`, changes });
  }
  const conditions = lock.conditions ? diffFields(lock.conditions, current.conditions) : [];
  if (conditions.length > 0) out.push({ unit: 'job', changes: conditions });
  return out;
}

/** `tasks/edu-fractions-lesson: rubric item weakest-objective: check changed; item plan-present: importance core → auxiliary` */
export function describeUnitChange(change: UnitChange): string {
  return `${change.unit}: ${change.changes.join('; ')}`;
}

/** The lock after a run of `current` is accepted: new units added, changed ones replaced (the old kept as superseded). */
export function acceptUnits(
  lock: JobLock | null,
  job: { jobId: string; specDigest: string; units: Record<string, UnitVersion>; setup?: SetupPin },
  now: string,
): JobLock {
  const units = { ...(lock?.units ?? {}) };
  const superseded = [...(lock?.superseded ?? [])];
  for (const [unit, version] of Object.entries(job.units)) {
    const locked = units[unit];
    if (locked?.digest === version.digest) continue;
    if (locked) superseded.push({ ...locked, unit, supersededAt: now });
    units[unit] = { ...version, acceptedAt: now };
  }
  return {
    schema: JOB_LOCK_SCHEMA,
    jobId: job.jobId,
    specDigest: job.specDigest,
    units,
    ...(job.setup || lock?.systems ? { systems: { ...(lock?.systems ?? {}), ...job.setup?.systems } } : {}),
    ...((job.setup?.conditions ?? lock?.conditions) ? { conditions: job.setup?.conditions ?? lock?.conditions } : {}),
    superseded,
    createdAt: lock?.createdAt ?? now,
    updatedAt: now,
  };
}
