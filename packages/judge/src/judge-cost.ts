// Judge cost, kept apart from agent cost: tokens and time per verdict, rolled up per trial and job.
import { priceTokens, type ModelPrice } from '@assay/core';
import type { JudgeRunResult, TokenUsage } from './types.js';

export interface JudgeCost {
  /** Judge sessions and the model requests they made. */
  sessions: number;
  modelCalls: number;
  /** input + output; cached input is counted once, inside input. */
  totalTokens: number;
  usage: TokenUsage;
  /** Wall time of judging and the part spent waiting on the model, ms. */
  wallMs: number;
  modelMs: number;
  items: { total: number; reused: number; judged: number; unjudged: number };
  malformedReplies: number;
  /** Money, when per-million-token prices are given. */
  costUsd: number | null;
}

export type TokenPrices = ModelPrice;

export function judgeCost(run: Pick<JudgeRunResult, 'stats'>, prices?: TokenPrices): JudgeCost {
  const s = run.stats;
  const cost = prices ? priceTokens(s.usage, prices) : null;
  return {
    sessions: s.sessions,
    modelCalls: s.modelCalls,
    totalTokens: s.usage.inputTokens + s.usage.outputTokens,
    usage: { ...s.usage },
    wallMs: s.wallMs,
    modelMs: s.modelMs,
    items: { total: s.items, reused: s.reused, judged: s.judged, unjudged: s.unjudged },
    malformedReplies: s.malformedReplies,
    costUsd: cost,
  };
}

/** Sum several costs (the runs of one trial, or the trials of a job). */
export function sumJudgeCosts(costs: readonly JudgeCost[]): JudgeCost {
  const out: JudgeCost = {
    sessions: 0,
    modelCalls: 0,
    totalTokens: 0,
    usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteInputTokens: 0 },
    wallMs: 0,
    modelMs: 0,
    items: { total: 0, reused: 0, judged: 0, unjudged: 0 },
    malformedReplies: 0,
    costUsd: costs.length > 0 ? 0 : null,
  };
  for (const c of costs) {
    out.sessions += c.sessions;
    out.modelCalls += c.modelCalls;
    out.totalTokens += c.totalTokens;
    out.usage.inputTokens += c.usage.inputTokens;
    out.usage.outputTokens += c.usage.outputTokens;
    out.usage.cachedInputTokens += c.usage.cachedInputTokens;
    out.usage.cacheWriteInputTokens += c.usage.cacheWriteInputTokens;
    out.wallMs += c.wallMs;
    out.modelMs += c.modelMs;
    for (const k of Object.keys(out.items) as (keyof JudgeCost['items'])[]) out.items[k] += c.items[k];
    out.malformedReplies += c.malformedReplies;
    // Unknown money anywhere makes the sum unknown, not an undercount.
    out.costUsd = out.costUsd === null || c.costUsd === null ? null : out.costUsd + c.costUsd;
  }
  return out;
}
