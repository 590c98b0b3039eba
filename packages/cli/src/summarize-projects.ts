// The end-of-run summary for multi-stage projects: process and final scores stay separate.
import type { ProjectRecord } from '@assay/core';

export interface ProjectSystemSummary {
  system: string;
  projects: number;
  /** Mean project process score (mean of its checkpoint scores); null when none is fully judged. */
  processScore: number | null;
  finalScore: number | null;
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
    return {
      system,
      projects: rs.length,
      processScore: proc.length ? proc.reduce((a, b) => a + b, 0) / proc.length : null,
      finalScore: fin.length ? fin.reduce((a, b) => a + b, 0) / fin.length : null,
      subtaskPassRate: judged.length ? (100 * judged.filter((s) => s >= 90).length) / judged.length : null,
      unjudgedCheckpoints: cps.length - judged.length,
      gatesTriggered: rs.filter((r) => r.final.gateTriggered).length,
    };
  });
}

export function renderProjectTable(rows: readonly ProjectSystemSummary[]): string {
  const fmt = (x: number | null): string => (x === null ? '—' : x.toFixed(1));
  const header = ['system', 'projects', 'process', 'final', 'subtask pass %', 'unjudged checkpoints', 'gates'];
  const body = rows.map((r) => [r.system, String(r.projects), fmt(r.processScore), fmt(r.finalScore), fmt(r.subtaskPassRate), String(r.unjudgedCheckpoints), String(r.gatesTriggered)]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}
