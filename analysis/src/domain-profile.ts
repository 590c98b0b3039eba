// StartupBench Table 3: per-domain average score and success rate, with an
// "Overall" row that weights each domain by its task count.
import type { ColumnTable } from 'arquero';
import { DOMAIN_LABELS, SUCCESS_THRESHOLD } from '@assay/core';
import type { Domain } from '@assay/core';
import { groupBy, isNum, rowsOf, tableOf } from './table-helpers.js';

export const OVERALL = 'Overall';
const DOMAIN_PROFILE_COLUMNS = ['system', 'domain', 'tasks', 'scored', 'mean', 'success_rate'] as const;

export interface DomainRow {
  system: string;
  domain: string;
  tasks: number;
  mean: number | null;
  success_rate: number | null;
}

/** Per system x domain (display labels) plus each system's task-weighted Overall row. */
export function domainProfile(trials: ColumnTable): ColumnTable {
  const rows = rowsOf<{ system: string; task: string; domain: string; score: number | null }>(
    trials.select('system', 'task', 'domain', 'score'),
  );
  const out: (DomainRow & { scored: number })[] = [];
  for (const [key, list] of groupBy(rows, (r) => `${r.system}\u0000${r.domain}`)) {
    const [system, domain] = key.split('\u0000') as [string, string];
    const scores = list.map((r) => r.score).filter(isNum);
    const tasks = new Set(list.filter((r) => isNum(r.score)).map((r) => r.task)).size;
    out.push({
      system,
      domain: DOMAIN_LABELS[domain as Domain] ?? domain,
      tasks,
      scored: scores.length,
      mean: scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null,
      success_rate: scores.length ? (100 * scores.filter((s) => s >= SUCCESS_THRESHOLD).length) / scores.length : null,
    });
  }
  const overall = domainOverall(out).map((o) => ({
    ...o,
    scored: out.filter((r) => r.system === o.system).reduce((a, r) => a + r.scored, 0),
  }));
  return tableOf([...overall, ...out], DOMAIN_PROFILE_COLUMNS);
}

/**
 * Overall row per system: sum_d tasks_d * value_d / sum_d tasks_d, over domains with a
 * value. `taskCounts` overrides the per-row task counts (e.g. the benchmark's domain sizes).
 */
export function domainOverall(rows: readonly DomainRow[], taskCounts?: ReadonlyMap<string, number>): DomainRow[] {
  const out: DomainRow[] = [];
  for (const [system, list] of groupBy(
    rows.filter((r) => r.domain !== OVERALL),
    (r) => r.system,
  )) {
    const weighted = (key: 'mean' | 'success_rate'): { value: number | null; tasks: number } => {
      let num = 0;
      let den = 0;
      for (const r of list) {
        const v = r[key];
        const w = taskCounts?.get(r.domain) ?? r.tasks;
        if (v === null || w === 0) continue;
        num += w * v;
        den += w;
      }
      return { value: den > 0 ? num / den : null, tasks: den };
    };
    const mean = weighted('mean');
    out.push({
      system,
      domain: OVERALL,
      tasks: mean.tasks,
      mean: mean.value,
      success_rate: weighted('success_rate').value,
    });
  }
  return out;
}
