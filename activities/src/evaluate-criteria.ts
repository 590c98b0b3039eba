// Decide DeliverBench criteria over a submission folder: deterministic checks
// first, the judge (when configured) for the rest, reuse of an earlier verdict
// when the criterion, the artifacts it looks at, the evidence context and the
// judge setup are all unchanged. Anything undecided stays explicitly unjudged.
import { createHash } from 'node:crypto';
import type { Check, CriterionVerdict, JobSpec, QualityDimension, SnapshotFile, Target } from '@assay/core';
import type { EvidenceTools } from './evaluate-deliverables.js';

/** Bump when evidence extraction changes what a judge or check would see. */
export const EVIDENCE_CONTEXT_VERSION = 'evidence/v1';

export interface CriterionToJudge {
  criterionId: string;
  text: string;
  weight: number;
  fatal: boolean;
  dimension: QualityDimension;
  target: Target | null;
  check?: Check | undefined;
  /** `subtask/criterion` of the checkpoint criterion re-applied here (artifact quality). */
  reuses?: string | undefined;
}

/** Decides criteria no check decided; the worker injects @assay/judge. Keyed by criterion id. */
export type JudgeCriteria = (args: {
  items: { criterionId: string; text: string; group: string }[];
  /** What the agent was asked (subtask instructions, or the project objective for the final package). */
  request: string;
  contextId: string;
  outputsDir: string;
  judge: JobSpec['judge'];
  resultsDir: string;
}) => Promise<Map<string, { decision: 'satisfied' | 'not-satisfied' | 'unjudged'; reason: string }>>;

export interface PriorVerdict {
  ref: string;
  verdict: CriterionVerdict;
}

export function filesReferenced(check: Check | undefined): string[] | null {
  if (!check) return null;
  if (check.kind === 'deliverable-present') return [check.path];
  if (check.kind === 'files-agree') return [check.a.file, check.b.file];
  return [check.file];
}

/** Reuse key: criterion, the content of what it looks at, evidence context, judge setup. */
export function reuseKeyOf(
  c: Pick<CriterionToJudge, 'text' | 'check'>,
  outputs: readonly SnapshotFile[],
  judge: JobSpec['judge'],
): string {
  const refs = filesReferenced(c.check);
  const artifacts = outputs.filter((f) => refs === null || refs.includes(f.path)).map((f) => [f.path, f.sha256]);
  const missing = refs?.filter((r) => !outputs.some((f) => f.path === r)) ?? [];
  const judgeSetup = c.check
    ? 'check'
    : JSON.stringify({
        mode: judge.mode,
        provider: judge.provider,
        model: judge.model,
        temperature: judge.temperature,
      });
  return createHash('sha256')
    .update(
      JSON.stringify({
        text: c.text,
        check: c.check ?? null,
        artifacts,
        missing,
        evidence: EVIDENCE_CONTEXT_VERSION,
        judgeSetup,
      }),
    )
    .digest('hex');
}

export async function evaluateCriteria(args: {
  criteria: readonly CriterionToJudge[];
  outputsDir: string;
  /** The submission's files relative to outputs/, with hashes. */
  outputs: readonly SnapshotFile[];
  evidence: EvidenceTools;
  judge: JobSpec['judge'];
  /** Earlier verdicts by `subtask/criterion`, for reuse. */
  prior: ReadonlyMap<string, CriterionVerdict>;
  /** Source criteria for `reuses` (text and check of the checkpoint criterion). */
  sources: ReadonlyMap<string, { text: string; check?: Check | undefined }>;
  /** The agent judge for criteria without a decisive check (absent: they stay unjudged). */
  judgeCriteria?: JudgeCriteria | undefined;
  request?: string;
  contextId?: string;
  resultsDir?: string;
}): Promise<Omit<CriterionVerdict, 'effective' | 'blockedBy'>[]> {
  let view: unknown = null;
  const out: Omit<CriterionVerdict, 'effective' | 'blockedBy'>[] = [];
  for (const c of args.criteria) {
    const source = c.reuses ? args.sources.get(c.reuses) : undefined;
    const applied = { text: source?.text ?? c.text, check: c.check ?? source?.check };
    const reuseKey = reuseKeyOf(applied, args.outputs, args.judge);
    const base = {
      criterionId: c.criterionId,
      weight: c.weight,
      fatal: c.fatal,
      dimension: c.dimension,
      target: c.target,
      reuseKey,
      reusedFrom: null,
    };
    const earlier = c.reuses ? args.prior.get(c.reuses) : undefined;
    if (earlier && earlier.reuseKey === reuseKey && earlier.decision !== 'unjudged') {
      out.push({
        ...base,
        decision: earlier.decision,
        source: 'reused',
        reason: `unchanged since ${c.reuses}: ${earlier.reason}`,
        reusedFrom: c.reuses ?? null,
      });
      continue;
    }
    if (applied.check) {
      view ??= await args.evidence.buildView(args.outputsDir);
      const outcome = await args.evidence.evaluateCheck(applied.check, view);
      if (outcome.status !== 'cannot-evaluate') {
        out.push({ ...base, decision: outcome.status, source: 'check', reason: outcome.reason });
        continue;
      }
      out.push({
        ...base,
        decision: 'unjudged',
        source: 'check',
        reason: `check could not evaluate: ${outcome.reason}`,
      });
      continue;
    }
    out.push({
      ...base,
      decision: 'unjudged',
      source: 'none',
      reason: 'no judge configured (judge.mode is checks-only)',
    });
  }
  // Everything still undecided goes to the judge in one call, so batched mode can batch it.
  const pending = out.filter((v) => v.decision === 'unjudged');
  if (pending.length === 0 || !args.judgeCriteria || args.judge.mode === 'checks-only') return out;
  const byId = new Map(args.criteria.map((c) => [c.criterionId, c]));
  const decided = await args.judgeCriteria({
    items: pending.map((v) => {
      const c = byId.get(v.criterionId);
      const source = c?.reuses ? args.sources.get(c.reuses) : undefined;
      return {
        criterionId: v.criterionId,
        text: source?.text ?? c?.text ?? v.criterionId,
        group: c?.target ?? c?.dimension ?? 'criteria',
      };
    }),
    request: args.request ?? '',
    contextId: args.contextId ?? 'project',
    outputsDir: args.outputsDir,
    judge: args.judge,
    resultsDir: args.resultsDir ?? args.outputsDir,
  });
  return out.map((v) => {
    const j = v.decision === 'unjudged' ? decided.get(v.criterionId) : undefined;
    if (!j) return v;
    return { ...v, decision: j.decision, source: j.decision === 'unjudged' ? v.source : 'judge', reason: j.reason };
  });
}
