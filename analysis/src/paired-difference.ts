// One system against another on the tasks both ran: the per-task means and the paired comparison (task-cluster
// bootstrap CI of the mean difference, McNemar on success). `assay compare` runs it per system pair of two
// runs; the report's harness swap runs it per model on two harnesses, so both show the same numbers.
import * as aq from 'arquero';
import type { BootstrapOptions } from './cluster-bootstrap.js';
import { messages } from './messages.js';
import { pairedComparison, type PairedComparison } from './paired-comparison.js';

export interface ScoredTrial {
  task: string;
  trial: number;
  score: number | null;
}

export interface TaskDifference {
  task: string;
  trialsA: number;
  trialsB: number;
  meanA: number | null;
  meanB: number | null;
  difference: number | null;
}

export interface PairedDifference {
  /** Null when no task has a score on both sides (`reason` says why). */
  paired: PairedComparison | null;
  reason: string | null;
  tasks: TaskDifference[];
}

const mean = (xs: number[]): number | null => (xs.length > 0 ? xs.reduce((s, x) => s + x, 0) / xs.length : null);

export function pairedDifference(
  ra: readonly ScoredTrial[],
  rb: readonly ScoredTrial[],
  options: BootstrapOptions = {},
): PairedDifference {
  const tasks = [...new Set([...ra, ...rb].map((r) => r.task))].sort();
  const rows: TaskDifference[] = tasks.map((task) => {
    const xa = ra.filter((r) => r.task === task).flatMap((r) => r.score ?? []);
    const xb = rb.filter((r) => r.task === task).flatMap((r) => r.score ?? []);
    const [meanA, meanB] = [mean(xa), mean(xb)];
    const difference = meanA !== null && meanB !== null ? meanA - meanB : null;
    return { task, trialsA: xa.length, trialsB: xb.length, meanA, meanB, difference };
  });
  if (![ra, rb].every((rs) => rs.some((r) => r.score !== null)))
    return { paired: null, reason: messages.noTaskScores, tasks: rows };
  // One table, the two sides named A and B, so the paired comparison pairs tasks and trial numbers.
  const table = aq.from([...ra.map((r) => ({ ...r, system: 'A' })), ...rb.map((r) => ({ ...r, system: 'B' }))]);
  try {
    return { paired: pairedComparison(table, 'A', 'B', options), reason: null, tasks: rows };
  } catch (err) {
    return { paired: null, reason: (err as Error).message, tasks: rows };
  }
}
