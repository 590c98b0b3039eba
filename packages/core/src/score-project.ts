// DeliverBench scoring, pure.
//
// Final score = clip[0,100](100 * sum_i w_i*h_i / W+), W+ = sum of positive weights,
// h_i the effective judgment after dependency resolution (for a negative criterion
// h=1 means its failure condition is met). A triggered fatal gate (weight 0) sets
// the final score to 0. Groups (targets, quality dimensions) are normalized by their
// own positive weight, before gates; a group without positive weight is unavailable.
//
// Dependency rule (ours, documented): a criterion's dependency "holds" when the
// dependency's effective judgment is favourable (positive criterion satisfied,
// negative criterion's failure not met, gate not triggered). A positive criterion
// whose dependencies do not all hold earns no credit; a negative criterion or gate is
// applied as judged, whatever its dependencies (so it is never pending or blocked
// because of them). An outcome is pending only while it is still open: a positive
// criterion judged "not satisfied", or with a dependency that already fails, earns
// nothing whatever the unjudged rest turns out to be.
import type { QualityDimension, Target } from './vocabulary.js';

export type Judgment = 0 | 1 | null;

export interface ScoredCriterion {
  id: string;
  weight: number;
  fatal: boolean;
  dependsOn: readonly string[];
  target?: Target;
  dimension?: QualityDimension;
  /** 1 satisfied / failure met, 0 not, null unjudged. */
  h: Judgment;
}

interface CriterionResult {
  id: string;
  /**
   * Judgment after dependency resolution; null while it is open: the criterion is unjudged, or it is
   * a positive criterion judged satisfied (or unjudged) whose dependencies hold or are unjudged.
   */
  effective: Judgment;
  /** The direct dependencies that do not hold, when that removed a positive criterion's credit; else empty. */
  blockedBy: string[];
}

export interface ProjectScore {
  /** 0–100; null while any criterion's effective judgment is open, unless a triggered gate decided it. */
  score: number | null;
  /** Before clipping and gates, for diagnosis. */
  raw: number | null;
  gateTriggered: boolean;
  gates: string[];
  /** Criteria whose effective judgment is open (null). */
  unjudged: string[];
  criteria: CriterionResult[];
}

/** Whether a criterion earns credit (positive weight, not a gate): dependencies act on these only. */
function isPositiveCriterion(c: Pick<ScoredCriterion, 'weight' | 'fatal'>): boolean {
  return c.weight > 0 && !c.fatal;
}

/** A dependency holds when its effective judgment is favourable; null while it is open. */
function holds(dep: ScoredCriterion, r: CriterionResult): boolean | null {
  if (r.effective === null) return null;
  return isPositiveCriterion(dep) ? r.effective === 1 : r.effective === 0;
}

/** Effective judgment of one criterion from its own judgment and its dependencies' states. */
function applyRule(c: ScoredCriterion, failing: string[], open: boolean): CriterionResult {
  if (!isPositiveCriterion(c)) return { id: c.id, effective: c.h, blockedBy: [] };
  if (c.h === 0) return { id: c.id, effective: 0, blockedBy: [] };
  if (failing.length > 0) return { id: c.id, effective: 0, blockedBy: failing };
  return { id: c.id, effective: c.h === null || open ? null : 1, blockedBy: [] };
}

function resolveDependencies(criteria: readonly ScoredCriterion[]): CriterionResult[] {
  const byId = new Map(criteria.map((c) => [c.id, c]));
  const memo = new Map<string, CriterionResult>();
  const resolve = (c: ScoredCriterion, trail: Set<string>): CriterionResult => {
    const known = memo.get(c.id);
    if (known) return known;
    if (trail.has(c.id)) throw new Error(`criteria depend on each other in a cycle through "${c.id}"`);
    trail.add(c.id);
    // Every dependency is resolved, also of negatives and gates, so cycles and unknown ids always surface.
    const failing: string[] = [];
    let open = false;
    for (const depId of c.dependsOn) {
      const dep = byId.get(depId);
      if (!dep) throw new Error(`criterion "${c.id}" depends on unknown criterion "${depId}"`);
      const ok = holds(dep, resolve(dep, trail));
      if (ok === null) open = true;
      else if (!ok) failing.push(depId);
    }
    trail.delete(c.id);
    const result = applyRule(c, failing, open);
    memo.set(c.id, result);
    return result;
  };
  return criteria.map((c) => resolve(c, new Set()));
}

export function positiveWeight(criteria: readonly Pick<ScoredCriterion, 'weight'>[]): number {
  return criteria.reduce((a, c) => a + Math.max(c.weight, 0), 0);
}

export function clip100(x: number): number {
  return Math.min(100, Math.max(0, x));
}

export function scoreProjectFinal(criteria: readonly ScoredCriterion[]): ProjectScore {
  const results = resolveDependencies(criteria);
  const unjudged = results.filter((r) => r.effective === null).map((r) => r.id);
  const gates = criteria.filter((c, i) => c.fatal && results[i]?.effective === 1).map((c) => c.id);
  const wPlus = positiveWeight(criteria);
  if (wPlus <= 0) throw new Error('final criteria have no positive weight');
  let credit = 0;
  criteria.forEach((c, i) => {
    if (!c.fatal) credit += c.weight * (results[i]?.effective ?? 0);
  });
  const raw = unjudged.length > 0 ? null : (100 * credit) / wPlus;
  // A triggered gate is decisive even while other criteria are pending.
  const score = gates.length > 0 ? 0 : raw === null ? null : clip100(raw);
  return { score, raw, gateTriggered: gates.length > 0, gates, unjudged, criteria: results };
}

export type GroupScore = { group: string; score: number | null; available: boolean; positiveWeight: number };

/** Separately normalized group profile (targets or quality dimensions), before fatal gates. */
export function scoreGroups(
  criteria: readonly ScoredCriterion[],
  groupOf: (c: ScoredCriterion) => string | undefined,
): GroupScore[] {
  const results = resolveDependencies(criteria);
  const groups = new Map<string, { credit: number; wPlus: number; pending: boolean }>();
  criteria.forEach((c, i) => {
    const g = groupOf(c);
    if (g === undefined || c.fatal) return;
    const acc = groups.get(g) ?? { credit: 0, wPlus: 0, pending: false };
    const eff = results[i]?.effective ?? null;
    if (eff === null) acc.pending = true;
    else acc.credit += c.weight * eff;
    acc.wPlus += Math.max(c.weight, 0);
    groups.set(g, acc);
  });
  return [...groups.entries()].map(([group, a]) => ({
    group,
    positiveWeight: a.wPlus,
    available: a.wPlus > 0,
    score: a.wPlus <= 0 || a.pending ? null : clip100((100 * a.credit) / a.wPlus),
  }));
}

/** Process score: each checkpoint by its own criteria; the project's process score is their mean. */
export function scoreProcess(checkpointScores: readonly (number | null)[]): number | null {
  if (checkpointScores.length === 0 || checkpointScores.some((s) => s === null)) return null;
  return (checkpointScores as number[]).reduce((a, b) => a + b, 0) / checkpointScores.length;
}
