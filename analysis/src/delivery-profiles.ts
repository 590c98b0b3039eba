// DeliverBench Fig. 5e–f: final criteria grouped by quality dimension or by target.
// Each project record carries its group scores (core's scoreGroups: signed credit /
// positive available weight x 100, clipped, before fatal gates). Here they are averaged
// equally over projects. A group without positive weight in a project is "unavailable"
// there (never 0); with none anywhere it is unavailable for the system. A group still
// waiting for a judgment is "unjudged" in that project.
import type { ColumnTable } from 'arquero';
import { QUALITY_DIMENSIONS, TARGETS } from '@assay/core';
import { groupBy, isNum, meanOf, rowsOf, tableOf } from './table-helpers.js';

export type ProfileBy = 'dimension' | 'target';
export type ProfileValue = number | 'unavailable' | null;

const PROFILE_COLUMNS = [
  'system',
  'group',
  'score',
  'status',
  'projects',
  'unavailable_projects',
  'unjudged_projects',
] as const;

interface GroupRow {
  system: string;
  project: string;
  trial: number;
  by: string;
  group: string;
  score: number | null;
  available: boolean;
}

/** Per system x project (trials averaged) x group: a score, 'unavailable', or null (unjudged). */
export function projectProfiles(
  groups: ColumnTable,
  by: ProfileBy,
): { system: string; project: string; group: string; value: ProfileValue }[] {
  const rows = rowsOf<GroupRow>(
    groups.select('system', 'project', 'trial', 'by', 'group', 'score', 'available'),
  ).filter((r) => r.by === by);
  const names: readonly string[] = by === 'dimension' ? QUALITY_DIMENSIONS : TARGETS;
  const out: { system: string; project: string; group: string; value: ProfileValue }[] = [];
  for (const list of groupBy(rows, (r) => `${r.system}\u0000${r.project}`).values()) {
    const first = list[0] as GroupRow;
    const trials = [...groupBy(list, (r) => String(r.trial)).values()];
    for (const group of names) {
      // A group missing from a record has no criteria there: unavailable.
      const values: ProfileValue[] = trials.map((t) => {
        const g = t.find((r) => r.group === group);
        return !g || !g.available ? 'unavailable' : g.score;
      });
      const value: ProfileValue = values.every((v) => v === 'unavailable')
        ? 'unavailable'
        : values.some((v) => v === null)
          ? null
          : meanOf(values.filter(isNum));
      out.push({ system: first.system, project: first.project, group, value });
    }
  }
  return out;
}

export function deliveryProfiles(groups: ColumnTable, by: ProfileBy): ColumnTable {
  const out = [...groupBy(projectProfiles(groups, by), (p) => `${p.system}\u0000${p.group}`).values()].map((list) => {
    const f = list[0] as (typeof list)[number];
    const numeric = list.map((p) => p.value).filter(isNum);
    const unavailable = list.filter((p) => p.value === 'unavailable').length;
    const unjudged = list.filter((p) => p.value === null).length;
    return {
      system: f.system,
      group: f.group,
      score: meanOf(numeric),
      status: numeric.length > 0 ? 'ok' : unavailable === list.length ? 'unavailable' : 'unjudged',
      projects: numeric.length,
      unavailable_projects: unavailable,
      unjudged_projects: unjudged,
    };
  });
  return tableOf(out, PROFILE_COLUMNS);
}
