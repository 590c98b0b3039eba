// Records of two versions of one unit are never pooled silently: where a task's (or project's) records carry
// more than one content version, those not of the current version are given a system id of their own
// (`oracle@1a2b3c4d`, `oracle@unknown-version` for records made before versions were recorded), so every
// summary, table and figure shows them as a row of their own. The current version is the job lock's, else
// the one of the latest record. Pure: readers apply it to what they loaded.
import type { JobLock } from './job-lock.js';
import { projectUnitKey, taskUnitKey } from './job-lock.js';
import type { ProjectRecord } from './project-record.js';
import type { TrialRecord } from './trial-record.js';

const UNKNOWN_VERSION = 'unknown-version';

/** One unit whose records were split, for the line that says so. */
export interface VersionSplit {
  unit: string;
  /** The version kept under the system's own id. */
  current: string;
  /** Other versions by tag, with how many records each. */
  others: { tag: string; records: number }[];
}

const unitOf = (r: TrialRecord | ProjectRecord): string =>
  'task' in r ? taskUnitKey(r.task.id) : projectUnitKey(r.project.id);

/** A record's version tag: the first 8 hex digits of its unit digest, or `unknown-version`. */
export function versionTagOf(r: TrialRecord | ProjectRecord): string {
  return r.provenance?.unit.digest.slice(0, 8) ?? UNKNOWN_VERSION;
}

export function splitByVersion<R extends TrialRecord | ProjectRecord>(
  records: readonly R[],
  lock: JobLock | null,
): { records: R[]; splits: VersionSplit[] } {
  const byUnit = new Map<string, R[]>();
  for (const r of records) byUnit.set(unitOf(r), [...(byUnit.get(unitOf(r)) ?? []), r]);
  const current = new Map<string, string>();
  const splits: VersionSplit[] = [];
  for (const [unit, rs] of byUnit) {
    const tags = new Set(rs.map(versionTagOf));
    if (tags.size < 2) continue;
    const locked = lock?.units[unit]?.digest.slice(0, 8);
    const latest = [...rs].sort((a, b) => (a.recordedAt < b.recordedAt ? 1 : -1))[0];
    const keep = locked !== undefined && tags.has(locked) ? locked : latest ? versionTagOf(latest) : UNKNOWN_VERSION;
    current.set(unit, keep);
    const others = [...tags].filter((t) => t !== keep).sort();
    splits.push({
      unit,
      current: keep,
      others: others.map((tag) => ({ tag, records: rs.filter((r) => versionTagOf(r) === tag).length })),
    });
  }
  if (splits.length === 0) return { records: [...records], splits };
  const out = records.map((r) => {
    const keep = current.get(unitOf(r));
    const tag = versionTagOf(r);
    return keep === undefined || tag === keep ? r : { ...r, system: { ...r.system, id: `${r.system.id}@${tag}` } };
  });
  return { records: out, splits };
}

/** `tasks/edu-fractions-lesson has records of 2 versions: 1 of 1a2b3c4d shown as <system>@1a2b3c4d (current: 9f8e7d6c)` */
export function describeVersionSplit(s: VersionSplit): string {
  const others = s.others.map((o) => `${o.records} of ${o.tag} shown as <system>@${o.tag}`).join(', ');
  return `${s.unit} has records of ${s.others.length + 1} versions: ${others} (current: ${s.current})`;
}
