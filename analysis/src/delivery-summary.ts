// DeliverBench Fig. 5a–c and Table 5 means: final-delivery and process means per
// system (projects weighted equally, project-cluster bootstrap CIs), the
// process–final gap with a paired CI, subtask pass rate at >= 90, and the outcomes
// below the equal-score line (final < process).
import * as aq from 'arquero';
import type { ColumnTable } from 'arquero';
import { clusterBootstrap } from './cluster-bootstrap.js';
import type { BootstrapOptions } from './cluster-bootstrap.js';
import { deriveSeed, DEFAULT_SEED } from './seeded-rng.js';
import { groupBy, intervalColumns, isNum, meanOf, rowsOf, sumOf, tableOf } from './table-helpers.js';

export interface ProjectOutcome {
  system: string;
  project: string;
  final: number | null;
  process: number | null;
}

export const DELIVERY_COLUMNS = [
  'system',
  'projects',
  'final_projects',
  'process_projects',
  'final_mean',
  'final_ci_low',
  'final_ci_high',
  'process_mean',
  'process_ci_low',
  'process_ci_high',
  'gap',
  'gap_ci_low',
  'gap_ci_high',
  'checkpoints',
  'checkpoints_judged',
  'checkpoints_passed',
  'pass_rate',
  'below_line',
  'outcomes',
] as const;

/** One outcome per system x project: trials of a project are averaged first (projects weigh equally). */
export function projectOutcomes(projects: ColumnTable): ProjectOutcome[] {
  const rows = rowsOf<ProjectOutcome>(projects.select('system', 'project', 'final', 'process'));
  return [...groupBy(rows, (r) => `${r.system}\u0000${r.project}`).values()].map((list) => {
    const f = list[0] as ProjectOutcome;
    return {
      system: f.system,
      project: f.project,
      final: meanOf(list.map((r) => r.final)),
      process: meanOf(list.map((r) => r.process)),
    };
  });
}

export function deliverySummary(projects: ColumnTable, options: BootstrapOptions = {}): ColumnTable {
  const seed = options.seed ?? DEFAULT_SEED;
  const counts = rowsOf<{
    system: string;
    checkpoints: number;
    checkpoints_judged: number;
    checkpoints_passed: number;
  }>(projects.select('system', 'checkpoints', 'checkpoints_judged', 'checkpoints_passed'));
  const out = [...groupBy(projectOutcomes(projects), (o) => o.system).entries()].map(([system, list]) => {
    const boot = (values: number[], key: string) =>
      clusterBootstrap(
        { sums: values, counts: values.map(() => 1) },
        { ...options, seed: deriveSeed(seed, `${key}:${system}`) },
      );
    const finals = list.map((o) => o.final).filter(isNum);
    const processes = list.map((o) => o.process).filter(isNum);
    const both = bothScored(list);
    const f = boot(finals, 'final');
    const p = boot(processes, 'process');
    const g = boot(both.map(processFinalGap), 'gap');
    const c = counts.filter((r) => r.system === system);
    const judged = sumOf(c, (r) => r.checkpoints_judged);
    const passed = sumOf(c, (r) => r.checkpoints_passed);
    const line = belowEqualScoreLine(list);
    return {
      system,
      projects: list.length,
      final_projects: finals.length,
      process_projects: processes.length,
      final_mean: f.estimate,
      ...intervalColumns('final_ci', f.percentile),
      process_mean: p.estimate,
      ...intervalColumns('process_ci', p.percentile),
      gap: g.estimate,
      ...intervalColumns('gap_ci', g.percentile),
      checkpoints: sumOf(c, (r) => r.checkpoints),
      checkpoints_judged: judged,
      checkpoints_passed: passed,
      pass_rate: judged > 0 ? (100 * passed) / judged : null,
      below_line: line.below,
      outcomes: line.outcomes,
    };
  });
  return tableOf(out, DELIVERY_COLUMNS).orderby(aq.desc('final_mean'));
}

/** Outcomes below the equal-score line across all systems and projects. */
export function belowEqualScoreLine(outcomes: readonly ProjectOutcome[]): { below: number; outcomes: number } {
  const both = bothScored(outcomes);
  return { below: both.filter((o) => (o.final as number) < (o.process as number)).length, outcomes: both.length };
}

/** The outcomes with both a final and a process score (the only ones a gap or the line can speak of). */
function bothScored(outcomes: readonly ProjectOutcome[]): ProjectOutcome[] {
  return outcomes.filter((o) => isNum(o.final) && isNum(o.process));
}

/** Process minus final of an outcome that has both. */
function processFinalGap(o: ProjectOutcome): number {
  return (o.process as number) - (o.final as number);
}

/** Final and process means per system over equally weighted projects, and the process–final gap. */
export function deliveryMeans(
  outcomes: readonly ProjectOutcome[],
): { system: string; final: number | null; process: number | null; gap: number | null }[] {
  return [...groupBy(outcomes, (o) => o.system).entries()].map(([system, list]) => {
    const final = meanOf(list.map((o) => o.final));
    const process = meanOf(list.map((o) => o.process));
    return { system, final, process, gap: final === null || process === null ? null : process - final };
  });
}

/** Per project: how many systems' outcomes lie below the equal-score line, and the mean process–final gap. */
export function belowLineByProject(outcomes: readonly ProjectOutcome[]): ColumnTable {
  const rows = [...groupBy(outcomes, (o) => o.project).entries()].map(([project, list]) => {
    const both = bothScored(list);
    const line = belowEqualScoreLine(both);
    return {
      project,
      outcomes: line.outcomes,
      below_line: line.below,
      mean_final: meanOf(both.map((o) => o.final)),
      mean_process: meanOf(both.map((o) => o.process)),
      mean_gap: meanOf(both.map(processFinalGap)),
    };
  });
  return tableOf(
    rows.sort((a, b) => a.project.localeCompare(b.project)),
    ['project', 'outcomes', 'below_line', 'mean_final', 'mean_process', 'mean_gap'],
  );
}
