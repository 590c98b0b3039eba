// The end-of-run summary for multi-stage projects: process and final scores stay separate.
import { scoreProjectFinal, type CriterionVerdict, type ProjectRecord } from '@assay/core';

/**
 * DeliverBench scoring over the decided criteria only (unjudged ones left out, gates
 * applied): the counterpart of a task's "score over decided items", for checks-only runs.
 */
export function decidedScore(verdicts: readonly CriterionVerdict[]): number | null {
  const decided = verdicts.filter((v) => v.decision !== 'unjudged');
  if (!decided.some((v) => v.weight > 0 && !v.fatal))
    return decided.some((v) => v.fatal && v.decision === 'satisfied') ? 0 : null;
  return scoreProjectFinal(
    decided.map((v) => ({
      id: v.criterionId,
      weight: v.weight,
      fatal: v.fatal,
      dependsOn: [],
      h: v.decision === 'satisfied' ? (1 as const) : (0 as const),
    })),
  ).score;
}

export interface ProjectSystemSummary {
  system: string;
  projects: number;
  /** Mean project process score (mean of its checkpoint scores); null when none is fully judged. */
  processScore: number | null;
  finalScore: number | null;
  /** The same over decided criteria only (dependencies not applied), for runs without a judge. */
  processDecided: number | null;
  finalDecided: number | null;
  /** Checkpoints scoring >= 90 over all judged checkpoints, in %. */
  subtaskPassRate: number | null;
  unjudgedCheckpoints: number;
  gatesTriggered: number;
}

export function summarizeProjects(records: readonly ProjectRecord[]): ProjectSystemSummary[] {
  const by = new Map<string, ProjectRecord[]>();
  for (const r of records) by.set(r.system.id, [...(by.get(r.system.id) ?? []), r]);
  return [...by.entries()].map(([system, rs]) => {
    const proc = rs.map((r) => r.process.score).filter((s): s is number => s !== null);
    const fin = rs.map((r) => r.final.score).filter((s): s is number => s !== null);
    const cps = rs.flatMap((r) => r.checkpoints);
    const judged = cps.map((c) => c.score).filter((s): s is number => s !== null);
    const mean = (xs: (number | null)[]): number | null => {
      const k = xs.filter((x): x is number => x !== null);
      return k.length ? k.reduce((a, b) => a + b, 0) / k.length : null;
    };
    const processDecided = mean(rs.map((r) => mean(r.checkpoints.map((c) => decidedScore(c.verdicts)))));
    const finalDecided = mean(rs.map((r) => decidedScore(r.final.verdicts)));
    return {
      system,
      projects: rs.length,
      processScore: proc.length ? proc.reduce((a, b) => a + b, 0) / proc.length : null,
      finalScore: fin.length ? fin.reduce((a, b) => a + b, 0) / fin.length : null,
      processDecided,
      finalDecided,
      subtaskPassRate: judged.length ? (100 * judged.filter((s) => s >= 90).length) / judged.length : null,
      unjudgedCheckpoints: cps.length - judged.length,
      gatesTriggered: rs.filter((r) => r.final.gateTriggered).length,
    };
  });
}

export function renderProjectTable(rows: readonly ProjectSystemSummary[]): string {
  const fmt = (x: number | null): string => (x === null ? '—' : x.toFixed(1));
  const header = [
    'system',
    'projects',
    'process',
    'final',
    'process (decided)',
    'final (decided)',
    'subtask pass %',
    'unjudged checkpoints',
    'gates',
  ];
  const body = rows.map((r) => [
    r.system,
    String(r.projects),
    fmt(r.processScore),
    fmt(r.finalScore),
    fmt(r.processDecided),
    fmt(r.finalDecided),
    fmt(r.subtaskPassRate),
    String(r.unjudgedCheckpoints),
    String(r.gatesTriggered),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}
