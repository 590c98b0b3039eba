// The project side of `assay compare`: per system pair, the final and process scores of the projects both runs
// ran (paired over projects with the same bootstrap and McNemar as tasks; DeliverBench keeps the two scores
// apart, so do we), and every criterion whose verdict differs between the runs, at a checkpoint or in the final
// package. Pure over project records.
import { decidedVerdictScore, type CriterionVerdict, type ProjectRecord } from '@assay/core';
import type { BootstrapOptions } from './cluster-bootstrap.js';
import { messages } from './messages.js';
import type { PairedComparison } from './paired-comparison.js';
import { pairedDifference } from './paired-difference.js';

export interface ProjectScoreDifference {
  /** `final` (the delivered package) or `process` (the checkpoints). */
  score: 'final' | 'process';
  /** Null when no project has that score on both sides (`reason` says why). */
  paired: PairedComparison | null;
  reason: string | null;
}

export interface ProjectMeans {
  project: string;
  trialsA: number;
  trialsB: number;
  finalA: number | null;
  finalB: number | null;
  processA: number | null;
  processB: number | null;
}

export interface ProjectSystemDifference {
  a: string;
  b: string;
  scores: ProjectScoreDifference[];
  projects: ProjectMeans[];
}

/** `score`: the records' scores; `decided`: decided criteria only (some run has no final score with every criterion decided). */
export type ProjectMetric = 'score' | 'decided';

export interface ProjectComparison {
  metric: ProjectMetric;
  systems: ProjectSystemDifference[];
  flips: CriterionFlip[];
}

export interface CriterionSide {
  decision: CriterionVerdict['decision'];
  source: CriterionVerdict['source'];
  reason: string;
}

export interface CriterionFlip {
  system: string;
  project: string;
  trial: number;
  /** `final` or the checkpoint's subtask id. */
  at: string;
  criterionId: string;
  a: CriterionSide;
  b: CriterionSide;
}

const mean = (xs: number[]): number | null => (xs.length > 0 ? xs.reduce((s, x) => s + x, 0) / xs.length : null);

/**
 * `score`: the record's final or process score (null while a criterion is unjudged). `decided`: the same over
 * decided criteria only (core's decidedVerdictScore, as `status` shows it), the process score the mean over
 * the checkpoints that have one.
 */
function scoreOf(r: ProjectRecord, which: 'final' | 'process', metric: ProjectMetric): number | null {
  if (metric === 'score') return which === 'final' ? r.final.score : r.process.score;
  if (which === 'final') return decidedVerdictScore(r.final.verdicts);
  return mean(r.checkpoints.flatMap((c) => decidedVerdictScore(c.verdicts) ?? []));
}

function scoreDifference(
  ra: readonly ProjectRecord[],
  rb: readonly ProjectRecord[],
  which: 'final' | 'process',
  metric: ProjectMetric,
  options: BootstrapOptions,
): ProjectScoreDifference {
  const row = (r: ProjectRecord) => ({ task: r.project.id, trial: r.trial, score: scoreOf(r, which, metric) });
  const d = pairedDifference(ra.map(row), rb.map(row), options);
  // No score on one side (checks-only and nothing decided): nothing to pair, and that is said.
  const none = [ra, rb].some((rs) => rs.every((r) => scoreOf(r, which, metric) === null));
  return { score: which, paired: d.paired, reason: none ? messages.noProjectScores(which) : d.reason };
}

function projectMeans(
  ra: readonly ProjectRecord[],
  rb: readonly ProjectRecord[],
  metric: ProjectMetric,
): ProjectMeans[] {
  const ids = [...new Set([...ra, ...rb].map((r) => r.project.id))].sort();
  return ids.map((project) => {
    const [xa, xb] = [ra, rb].map((rs) => rs.filter((r) => r.project.id === project));
    const m = (rs: ProjectRecord[] | undefined, which: 'final' | 'process') =>
      mean((rs ?? []).flatMap((r) => scoreOf(r, which, metric) ?? []));
    return {
      project,
      trialsA: xa?.length ?? 0,
      trialsB: xb?.length ?? 0,
      finalA: m(xa, 'final'),
      finalB: m(xb, 'final'),
      processA: m(xa, 'process'),
      processB: m(xb, 'process'),
    };
  });
}

/** Every criterion verdict of a project run by where it was decided: `final/<id>`, `<subtask>/<id>`. */
function verdictsOf(r: ProjectRecord): Map<string, { at: string; v: CriterionVerdict }> {
  const out = new Map<string, { at: string; v: CriterionVerdict }>();
  for (const c of r.checkpoints)
    for (const v of c.verdicts) out.set(`${c.subtaskId}/${v.criterionId}`, { at: c.subtaskId, v });
  for (const v of r.final.verdicts) out.set(`final/${v.criterionId}`, { at: 'final', v });
  return out;
}

function criterionFlips(ra: readonly ProjectRecord[], rb: readonly ProjectRecord[], system: string): CriterionFlip[] {
  const byKey = new Map(rb.map((r) => [`${r.project.id}/${r.trial}`, r]));
  const side = (v: CriterionVerdict): CriterionSide => ({ decision: v.decision, source: v.source, reason: v.reason });
  const out: CriterionFlip[] = [];
  for (const x of ra) {
    const y = byKey.get(`${x.project.id}/${x.trial}`);
    if (!y) continue;
    const other = verdictsOf(y);
    for (const [key, { at, v }] of verdictsOf(x)) {
      const w = other.get(key)?.v;
      if (w && w.decision !== v.decision)
        out.push({
          system,
          project: x.project.id,
          trial: x.trial,
          at,
          criterionId: v.criterionId,
          a: side(v),
          b: side(w),
        });
    }
  }
  return out;
}

/** The project comparison of the system pairs `compareRuns` chose (pairs with no project on either side are left out). */
export function compareProjects(
  a: readonly ProjectRecord[],
  b: readonly ProjectRecord[],
  pairs: readonly [string, string][],
  options: BootstrapOptions = {},
): ProjectComparison {
  // Full scores when every run has a final score somewhere; else decided criteria only, as tasks do.
  const full = [a, b].every((rs) => rs.length === 0 || rs.some((r) => r.final.score !== null));
  const metric: ProjectMetric = full ? 'score' : 'decided';
  const systems: ProjectSystemDifference[] = [];
  const flips: CriterionFlip[] = [];
  for (const [sa, sb] of pairs) {
    const ra = a.filter((r) => r.system.id === sa);
    const rb = b.filter((r) => r.system.id === sb);
    if (ra.length === 0 && rb.length === 0) continue;
    const scores = (['final', 'process'] as const).map((w) => scoreDifference(ra, rb, w, metric, options));
    systems.push({ a: sa, b: sb, scores, projects: projectMeans(ra, rb, metric) });
    flips.push(...criterionFlips(ra, rb, sa === sb ? sa : `${sa} | ${sb}`));
  }
  return { metric, systems, flips };
}
