// The end-of-run summary for multi-stage projects: process and final scores stay separate.
// Every number is read from the records or computed by core from them: no second scoring.
import { decidedVerdictScore, isSuccess, type ProjectRecord } from '@assay/core';
import { renderTable } from './render-table.js';

export interface ProjectSystemSummary {
  system: string;
  projects: number;
  /** Mean project process score (mean of its checkpoint scores); null when none is fully judged. */
  processScore: number | null;
  finalScore: number | null;
  /** The same over decided criteria only (core's decidedVerdictScore: dependencies and gates as recorded). */
  processDecided: number | null;
  finalDecided: number | null;
  /** Checkpoints scoring >= 90 (unrounded) over all judged checkpoints, in %. */
  subtaskPassRate: number | null;
  unjudgedCheckpoints: number;
  gatesTriggered: number;
}

const mean = (xs: readonly (number | null)[]): number | null => {
  const k = xs.filter((x): x is number => x !== null);
  return k.length ? k.reduce((a, b) => a + b, 0) / k.length : null;
};

export function summarizeProjects(records: readonly ProjectRecord[]): ProjectSystemSummary[] {
  const by = new Map<string, ProjectRecord[]>();
  for (const r of records) by.set(r.system.id, [...(by.get(r.system.id) ?? []), r]);
  return [...by.entries()].map(([system, rs]) => {
    const judged = rs
      .flatMap((r) => r.checkpoints)
      .map((c) => c.score)
      .filter((s): s is number => s !== null);
    const checkpoints = rs.reduce((n, r) => n + r.checkpoints.length, 0);
    return {
      system,
      projects: rs.length,
      processScore: mean(rs.map((r) => r.process.score)),
      finalScore: mean(rs.map((r) => r.final.score)),
      processDecided: mean(rs.map((r) => mean(r.checkpoints.map((c) => decidedVerdictScore(c.verdicts))))),
      finalDecided: mean(rs.map((r) => decidedVerdictScore(r.final.verdicts))),
      subtaskPassRate: judged.length ? (100 * judged.filter(isSuccess).length) / judged.length : null,
      unjudgedCheckpoints: checkpoints - judged.length,
      gatesTriggered: rs.filter((r) => r.final.gateTriggered).length,
    };
  });
}

export function renderProjectTable(rows: readonly ProjectSystemSummary[]): string {
  const fmt = (x: number | null): string => (x === null ? '—' : x.toFixed(1));
  return renderTable(
    [
      'system',
      'projects',
      'process',
      'final',
      'process (decided)',
      'final (decided)',
      'subtask pass %',
      'unjudged checkpoints',
      'gates',
    ],
    rows.map((r) => [
      r.system,
      String(r.projects),
      fmt(r.processScore),
      fmt(r.finalScore),
      fmt(r.processDecided),
      fmt(r.finalDecided),
      fmt(r.subtaskPassRate),
      String(r.unjudgedCheckpoints),
      String(r.gatesTriggered),
    ]),
  );
}
