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
export function reuseKeyOf(c: Pick<CriterionToJudge, 'text' | 'check'>, outputs: readonly SnapshotFile[], judge: JobSpec['judge']): string {
  const refs = filesReferenced(c.check);
  const artifacts = outputs
    .filter((f) => refs === null || refs.includes(f.path))
    .map((f) => [f.path, f.sha256]);
  const missing = refs?.filter((r) => !outputs.some((f) => f.path === r)) ?? [];
  const judgeSetup = c.check ? 'check' : JSON.stringify({ mode: judge.mode, provider: judge.provider, model: judge.model, temperature: judge.temperature });
  return createHash('sha256')
    .update(JSON.stringify({ text: c.text, check: c.check ?? null, artifacts, missing, evidence: EVIDENCE_CONTEXT_VERSION, judgeSetup }))
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
}): Promise<Omit<CriterionVerdict, 'effective' | 'blockedBy'>[]> {
  let view: unknown = null;
  const out: Omit<CriterionVerdict, 'effective' | 'blockedBy'>[] = [];
  for (const c of args.criteria) {
    const source = c.reuses ? args.sources.get(c.reuses) : undefined;
    const applied = { text: source?.text ?? c.text, check: c.check ?? source?.check };
    const reuseKey = reuseKeyOf(applied, args.outputs, args.judge);
    const base = { criterionId: c.criterionId, weight: c.weight, fatal: c.fatal, dimension: c.dimension, target: c.target, reuseKey, reusedFrom: null };
    const earlier = c.reuses ? args.prior.get(c.reuses) : undefined;
    if (earlier && earlier.reuseKey === reuseKey && earlier.decision !== 'unjudged') {
      out.push({ ...base, decision: earlier.decision, source: 'reused', reason: `unchanged since ${c.reuses}: ${earlier.reason}`, reusedFrom: c.reuses ?? null });
      continue;
    }
    if (applied.check) {
      view ??= await args.evidence.buildView(args.outputsDir);
      const outcome = await args.evidence.evaluateCheck(applied.check, view);
      if (outcome.status !== 'cannot-evaluate') {
        out.push({ ...base, decision: outcome.status, source: 'check', reason: outcome.reason });
        continue;
      }
      out.push({ ...base, decision: 'unjudged', source: 'check', reason: `check could not evaluate: ${outcome.reason}` });
      continue;
    }
    out.push({ ...base, decision: 'unjudged', source: 'none', reason: args.judge.mode === 'checks-only' ? 'no judge configured (judge.mode is checks-only)' : 'judge not available for project criteria yet' });
  }
  return out;
}
