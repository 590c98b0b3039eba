// The agent judge behind core's `Judge` protocol: items in, answers by id out. Evaluation
// (activities/evaluate-items.ts) calls it for whatever checks and reuse left undecided.
import type { Judge, JudgeAnswer, JudgeSetup } from '@assay/core';
import type { EvidenceSource } from './evidence-source.js';
import { judgeItems } from './judge-items.js';
import type { JudgeModel } from './judge-model.js';
import type { JudgeRunResult, JudgeVerdict } from './types.js';
import type { VerdictCache } from './verdict-cache.js';

export interface CreateJudgeOptions {
  setup: JudgeSetup;
  model: JudgeModel;
  /** Evidence over a submission folder (the worker adapts @assay/evidence). */
  openEvidence: (submissionDir: string) => Promise<EvidenceSource>;
  evidenceContextVersion: string;
  cache?: VerdictCache | undefined;
  onProgress?: (p: { sessions: number; decided: number; total: number }) => void;
  /** Sees every run's sessions and stats (e.g. to sum judge cost, kept apart from agent cost). */
  onRun?: (run: JudgeRunResult, at: { submissionDir: string }) => void;
}

export function createJudge(opts: CreateJudgeOptions): Judge {
  return async (request) => {
    const evidence = await opts.openEvidence(request.submissionDir);
    const run = await judgeItems({
      // The requirements in effect are part of the reuse key, so a checkpoint verdict is not
      // served for another subtask's instructions.
      items: request.items.map((i) => ({
        id: i.id,
        text: i.text,
        group: i.group,
        contextKey: request.context.request,
      })),
      context: { taskId: request.context.id, title: request.context.title, request: request.context.request },
      evidence,
      setup: opts.setup,
      model: opts.model,
      cache: opts.cache,
      evidenceContextVersion: opts.evidenceContextVersion,
      onProgress: opts.onProgress,
    });
    opts.onRun?.(run, { submissionDir: request.submissionDir });
    return new Map(run.verdicts.map((v) => [v.itemId, toAnswer(v)]));
  };
}

function toAnswer(v: JudgeVerdict): JudgeAnswer {
  const meta: Record<string, unknown> = {};
  if (v.unjudgedReason) meta.unjudgedReason = v.unjudgedReason;
  if (v.judge) Object.assign(meta, v.judge);
  return { decision: v.decision, reason: v.reason, evidence: v.evidence, meta };
}
