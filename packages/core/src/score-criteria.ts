// DeliverBench scoring of decided criteria, checkpoints and whole project records, pure.
// The rules themselves (dependencies, gates, clipping) are in score-project.ts.
import type { CheckpointRecord, CriterionVerdict, ProjectRecord } from './project-record.js';
import {
  clip100,
  scoreGroups,
  scoreProcess,
  scoreProjectFinal,
  type Judgment,
  type ScoredCriterion,
} from './score-project.js';
import { isSuccess } from './score-task.js';
import type { Decision } from './trial-record.js';

export type UnscoredCriterionVerdict = Omit<CriterionVerdict, 'effective' | 'blockedBy'>;

export interface CriteriaEvaluation {
  verdicts: CriterionVerdict[];
  score: number | null;
  raw: number | null;
  gateTriggered: boolean;
  gates: string[];
  unjudged: string[];
}

function judgmentOf(decision: Decision): Judgment {
  return decision === 'unjudged' ? null : decision === 'satisfied' ? 1 : 0;
}

/** Criterion verdicts as scoring inputs; `dependsOn` maps a criterion id to its dependencies. */
function toScoredCriteria(
  verdicts: readonly UnscoredCriterionVerdict[],
  dependsOn: ReadonlyMap<string, readonly string[]>,
): ScoredCriterion[] {
  return verdicts.map((v) => ({
    id: v.criterionId,
    weight: v.weight,
    fatal: v.fatal,
    dependsOn: dependsOn.get(v.criterionId) ?? [],
    target: v.target ?? undefined,
    dimension: v.dimension,
    h: judgmentOf(v.decision),
  }));
}

/** Score judged criteria with the DeliverBench rules (dependencies, gates, clipping). */
export function scoreCriteriaVerdicts(
  verdicts: readonly UnscoredCriterionVerdict[],
  dependsOn: ReadonlyMap<string, readonly string[]>,
): CriteriaEvaluation {
  const s = scoreProjectFinal(toScoredCriteria(verdicts, dependsOn));
  return {
    verdicts: verdicts.map((v, i) => ({
      ...v,
      effective: s.criteria[i]?.effective ?? null,
      blockedBy: s.criteria[i]?.blockedBy ?? [],
    })),
    score: s.score,
    raw: s.raw,
    gateTriggered: s.gateTriggered,
    gates: s.gates,
    unjudged: s.unjudged,
  };
}

/**
 * The score over decided criteria only, for runs where some stay unjudged: the recorded
 * dependency resolution and gates, with every criterion whose effective judgment is still
 * pending left out of both credit and W+. Equals the record's score when nothing is pending.
 */
export function decidedVerdictScore(verdicts: readonly CriterionVerdict[]): number | null {
  const pending = (v: CriterionVerdict) => v.effective === null;
  if (verdicts.some((v) => v.fatal && v.effective === 1)) return 0;
  const kept = verdicts.filter((v) => !v.fatal && !pending(v));
  const wPlus = kept.reduce((a, v) => a + Math.max(v.weight, 0), 0);
  if (wPlus <= 0) return null;
  return clip100((100 * kept.reduce((a, v) => a + v.weight * (v.effective ?? 0), 0)) / wPlus);
}

/** Share of checkpoints passing (unrounded score >= 90); null while any is unjudged or there are none. */
export function subtaskPassRate(scores: readonly (number | null)[]): number | null {
  if (scores.length === 0 || scores.some((s) => s === null)) return null;
  return (scores as number[]).filter(isSuccess).length / scores.length;
}

export interface ProjectScores {
  process: ProjectRecord['process'];
  targets: ProjectRecord['final']['targets'];
  dimensions: ProjectRecord['final']['dimensions'];
  resources: ProjectRecord['resources'];
}

/** Process score, pass rate, final profiles and resources of one project trial. */
export function scoreProjectTrial(
  checkpoints: readonly CheckpointRecord[],
  finalVerdicts: readonly UnscoredCriterionVerdict[],
  finalDependsOn: ReadonlyMap<string, readonly string[]>,
): ProjectScores {
  const scores = checkpoints.map((c) => c.score);
  const scored = toScoredCriteria(finalVerdicts, finalDependsOn);
  const usages = checkpoints.map((c) => c.usage);
  const known = usages.every((u) => u !== null);
  const input = known ? usages.reduce((a, u) => a + (u?.inputTokens ?? 0), 0) : null;
  const output = known ? usages.reduce((a, u) => a + (u?.outputTokens ?? 0), 0) : null;
  return {
    process: { score: scoreProcess(scores), passRate: subtaskPassRate(scores) },
    targets: scoreGroups(scored, (c) => c.target),
    dimensions: scoreGroups(scored, (c) => c.dimension),
    resources: {
      agentSeconds: checkpoints.reduce((a, c) => a + c.agent.durationSeconds, 0),
      inputTokens: input,
      outputTokens: output,
      // Cached input is already inside input and is not added again.
      totalTokens: input === null || output === null ? null : input + output,
    },
  };
}
