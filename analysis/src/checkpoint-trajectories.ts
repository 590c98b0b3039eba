// DeliverBench Fig. 9: checkpoint scores along each project's timeline, with the
// final-delivery score as the last point.
import type { ColumnTable } from 'arquero';
import { groupBy, rowsOf, tableOf } from './table-helpers.js';

export function checkpointTrajectories(checkpoints: ColumnTable, projects: ColumnTable): ColumnTable {
  const cps = rowsOf<{
    system: string;
    project: string;
    trial: number;
    subtask: string;
    index: number;
    score: number | null;
    status: string;
  }>(checkpoints.select('system', 'project', 'trial', 'subtask', 'index', 'score', 'status'));
  const finals = rowsOf<{ system: string; project: string; trial: number; final: number | null }>(
    projects.select('system', 'project', 'trial', 'final'),
  );
  const out: Record<string, unknown>[] = cps.map((c) => ({
    system: c.system,
    project: c.project,
    trial: c.trial,
    step: c.index + 1,
    label: c.subtask,
    kind: 'checkpoint',
    score: c.score,
    status: c.status,
  }));
  const lastStep = new Map<string, number>();
  for (const [key, list] of groupBy(cps, (c) => `${c.project}`))
    lastStep.set(key, Math.max(...list.map((c) => c.index + 1)));
  for (const f of finals) {
    out.push({
      system: f.system,
      project: f.project,
      trial: f.trial,
      step: (lastStep.get(f.project) ?? 0) + 1,
      label: 'final',
      kind: 'final',
      score: f.final,
      status: f.final === null ? 'unjudged' : 'judged',
    });
  }
  return tableOf(out, ['system', 'project', 'trial', 'step', 'label', 'kind', 'score', 'status']);
}
