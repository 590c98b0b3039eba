// Re-judge a stored trial under another judge setup without re-running the agent. Returns a
// new record (verdicts replaced, score recomputed); writing it is the caller's business, so
// the original record is never overwritten by accident.
import { scoreTask, type JudgeSetup, type Rubric, type TrialRecord } from '@assay/core';
import { createJudgeModel, type JudgeModelOptions } from './create-judge-model.js';
import type { EvidenceSource } from './evidence-source.js';
import { judgeCost, type JudgeCost } from './judge-cost.js';
import { judgeItems } from './judge-items.js';
import type { JudgeModel } from './judge-model.js';
import { rubricJudgeItems, toCoreVerdict } from './to-core-verdict.js';
import type { JudgeContext, JudgeRunResult, RunCheck } from './types.js';
import type { VerdictCache } from './verdict-cache.js';

export interface RejudgeTrialInput {
  record: TrialRecord;
  rubric: Rubric;
  context: JudgeContext;
  /** Evidence over the stored submission of this trial. */
  evidence: EvidenceSource;
  setup: JudgeSetup;
  evidenceContextVersion?: string;
  runCheck?: RunCheck;
  cache?: VerdictCache;
  /** Default: built from `setup` with the key from `modelOptions.env` / process.env. */
  model?: JudgeModel;
  modelOptions?: JudgeModelOptions;
  signal?: AbortSignal;
}

export interface RejudgeTrialOutput {
  record: TrialRecord;
  run: JudgeRunResult;
  cost: JudgeCost;
}

export async function rejudgeTrial(input: RejudgeTrialInput): Promise<RejudgeTrialOutput> {
  const model =
    input.setup.mode === 'checks-only' ? null : (input.model ?? createJudgeModel(input.setup, input.modelOptions));
  const run = await judgeItems({
    items: rubricJudgeItems(input.rubric.items),
    context: input.context,
    evidence: input.evidence,
    setup: input.setup,
    model,
    runCheck: input.runCheck,
    cache: input.cache,
    evidenceContextVersion: input.evidenceContextVersion ?? input.evidence.contextVersion ?? 'unversioned',
    signal: input.signal,
  });
  const byId = new Map(input.rubric.items.map((i) => [i.id, i]));
  const verdicts = run.verdicts.flatMap((v) => {
    const item = byId.get(v.itemId);
    return item ? [toCoreVerdict(v, item)] : [];
  });
  return {
    record: { ...input.record, verdicts, score: scoreTask(verdicts), recordedAt: new Date().toISOString() },
    run,
    cost: judgeCost(run),
  };
}
