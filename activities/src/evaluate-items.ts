// The I/O around core's decideItems: compute reuse keys, run the checks that reuse did not
// settle, send what is still undecided to the judge in one call (so batched mode can batch),
// then decide. Used for task rubrics, checkpoint and final criteria, and `assay judge`.
import { createHash } from 'node:crypto';
import {
  decideItems,
  itemsNeedingJudge,
  reusedItems,
  type Check,
  type CheckOutcome,
  type ItemDecision,
  type ItemToDecide,
  type JobSpec,
  type Judge,
  type JudgeRequest,
  type PriorVerdict,
} from '@assay/core';
import type { EvidenceTools } from './evaluate-deliverables.js';

/** Bump when evidence extraction changes what a judge or check would see. */
export const EVIDENCE_CONTEXT_VERSION = 'evidence/v1';

export interface EvaluationItem {
  id: string;
  /** The text and check actually applied (for `reuses`, the source criterion's). */
  text: string;
  check?: Check | undefined;
  /** Dimension or target. */
  group: string;
  reuses?: string | undefined;
}

/** Builds the judge of a job's setup (null for checks-only); the worker injects @assay/judge. */
export type JudgeFactory = (setup: JobSpec['judge'], opts: { resultsDir: string }) => Judge | null;

export interface EvaluationTools {
  evidence: EvidenceTools;
  /** Null in checks-only mode: undecided items stay unjudged. */
  judge: Judge | null;
}

export interface EvaluateItemsInput {
  items: readonly EvaluationItem[];
  submissionDir: string;
  /** The submission's files relative to submissionDir, with hashes (for reuse keys). */
  files: readonly { path: string; sha256: string }[];
  context: JudgeRequest['context'];
  judgeSetup: JobSpec['judge'];
  /** Earlier verdicts by `subtask/criterion`. */
  prior?: ReadonlyMap<string, PriorVerdict> | undefined;
}

export async function evaluateItems(tools: EvaluationTools, input: EvaluateItemsInput): Promise<ItemDecision[]> {
  const items: ItemToDecide[] = input.items.map((i) => ({
    id: i.id,
    reuseKey: reuseKeyOf(i, input.files, input.judgeSetup),
    reuses: i.reuses,
    hasCheck: i.check !== undefined,
  }));
  const reused = reusedItems(items, input.prior);
  const checks = await runChecks(
    tools.evidence,
    input.items.filter((i) => !reused.has(i.id)),
    input.submissionDir,
  );
  const pending = itemsNeedingJudge({ items, prior: input.prior, checks });
  const byId = new Map(input.items.map((i) => [i.id, i]));
  const answers =
    tools.judge && pending.length > 0
      ? await tools.judge({
          items: pending.map((p) => {
            const i = byId.get(p.id);
            return { id: p.id, text: i?.text ?? p.id, group: i?.group ?? 'items' };
          }),
          context: input.context,
          submissionDir: input.submissionDir,
        })
      : tools.judge
        ? new Map()
        : null;
  return decideItems({ items, prior: input.prior, checks, answers });
}

/** A check that throws is recorded as unable to evaluate (the item stays visibly unjudged). */
async function runChecks(
  evidence: EvidenceTools,
  items: readonly EvaluationItem[],
  dir: string,
): Promise<Map<string, CheckOutcome>> {
  const out = new Map<string, CheckOutcome>();
  const withCheck = items.filter((i) => i.check);
  if (withCheck.length === 0) return out;
  const view = await evidence.buildView(dir);
  for (const item of withCheck) {
    if (!item.check) continue;
    try {
      out.set(item.id, await evidence.evaluateCheck(item.check, view));
    } catch (err) {
      out.set(item.id, { status: 'cannot-evaluate', reason: (err as Error).message, evidence: [] });
    }
  }
  return out;
}

function filesReferenced(check: Check | undefined): string[] | null {
  if (!check) return null;
  if (check.kind === 'deliverable-present') return [check.path];
  if (check.kind === 'files-agree') return [check.a.file, check.b.file];
  return [check.file];
}

/** Reuse key: criterion, the content of what it looks at, evidence context, judge setup. */
export function reuseKeyOf(
  c: Pick<EvaluationItem, 'text' | 'check'>,
  files: readonly { path: string; sha256: string }[],
  judge: JobSpec['judge'],
): string {
  const refs = filesReferenced(c.check);
  const artifacts = files.filter((f) => refs === null || refs.includes(f.path)).map((f) => [f.path, f.sha256]);
  const missing = refs?.filter((r) => !files.some((f) => f.path === r)) ?? [];
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
