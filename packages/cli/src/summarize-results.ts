// The end-of-run summary: one row per system, from the trial records on disk.
import type { TrialRecord } from '@assay/core';
import { renderTable } from './render-table.js';

export interface SystemSummary {
  system: string;
  trials: number;
  done: number;
  failed: number;
  unjudged: number;
  /** Mean task score over trials whose every item is decided; null when none is. */
  meanScore: number | null;
  /** Mean score over decided items only (every trial). */
  meanDecided: number | null;
  /** Pooled over trials whose every item is decided (success needs the full score); null when none is. */
  successRate: number | null;
  /** Share of rubric weight decided, averaged over trials. */
  coverage: number;
}

export function summarizeResults(
  records: readonly TrialRecord[],
  expectedPerSystem: Map<string, number>,
): SystemSummary[] {
  const bySystem = new Map<string, TrialRecord[]>();
  for (const id of expectedPerSystem.keys()) bySystem.set(id, []);
  for (const r of records) bySystem.set(r.system.id, [...(bySystem.get(r.system.id) ?? []), r]);
  return [...bySystem.entries()].map(([system, rs]) => {
    const complete = rs.filter((r) => r.score.value !== null);
    const decided = rs.filter((r) => r.score.decided !== null);
    return {
      system,
      trials: expectedPerSystem.get(system) ?? rs.length,
      done: rs.filter((r) => r.status !== 'infra-failed').length,
      failed: rs.filter((r) => r.status !== 'completed').length,
      unjudged: rs.filter((r) => r.verdicts.some((v) => v.decision === 'unjudged')).length,
      meanScore: mean(complete.map((r) => r.score.value as number)),
      meanDecided: mean(decided.map((r) => r.score.decided as number)),
      // Success is defined on the full score only: a trial with unjudged items is neither.
      successRate:
        complete.length > 0 ? (100 * complete.filter((r) => r.score.success === true).length) / complete.length : null,
      coverage: rs.length > 0 ? rs.reduce((a, r) => a + r.score.coverage, 0) / rs.length : 0,
    };
  });
}

export function mean(xs: readonly number[]): number | null {
  return xs.length > 0 ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
}

/** A score or rate in a summary table: one decimal, a dash for none. */
export const formatScore = (x: number | null): string => (x === null ? '—' : x.toFixed(1));

export function renderSummaryTable(rows: readonly SystemSummary[]): string {
  const fmt = formatScore;
  const header = [
    'system',
    'score',
    'score (decided items)',
    'success %',
    'trials',
    'done',
    'failed',
    'unjudged',
    'coverage %',
  ];
  const body = rows.map((r) => [
    r.system,
    fmt(r.meanScore),
    fmt(r.meanDecided),
    fmt(r.successRate),
    String(r.trials),
    String(r.done),
    String(r.failed),
    String(r.unjudged),
    (100 * r.coverage).toFixed(0),
  ]);
  return renderTable(header, body);
}
