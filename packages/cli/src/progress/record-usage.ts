// A record as a finished unit, and the tokens and cost it holds (agent and judge kept apart).
import {
  batchPriceOf,
  priceTokens,
  projectRecordSchema,
  trialRecordSchema,
  type ModelPrice,
  type PriceProvider,
} from '@assay/core';
import type { UnitResult } from './progress-model.js';

export interface RecordUsage {
  agentTokens: number | null;
  agentUsd: number | null;
  judgeTokens: number | null;
  judgeUsd: number | null;
}

/** The unit a record (trial or project, by its key) stands for; null when it is not a valid record. */
export function unitOfRecord(key: string, json: unknown): UnitResult | null {
  const parts = key.split('/');
  const unitKey = parts.slice(1, 4).join('/');
  if (parts[0] === 'trials') {
    const r = trialRecordSchema.safeParse(json);
    if (!r.success) return null;
    const reason = r.data.status === 'completed' ? null : r.data.agent.reason;
    const unjudged = r.data.verdicts.filter((v) => v.decision === 'unjudged').length;
    return { key: unitKey, kind: 'task', status: r.data.status, unjudged, reason, at: Date.parse(r.data.recordedAt) };
  }
  const r = projectRecordSchema.safeParse(json);
  if (!r.success) return null;
  const unjudged = r.data.checkpoints.reduce((a, c) => a + c.unjudged.length, 0) + r.data.final.unjudged.length;
  return {
    key: unitKey,
    kind: 'project',
    status: 'completed',
    unjudged,
    reason: null,
    at: Date.parse(r.data.recordedAt),
  };
}

interface VerdictLike {
  judge?: Record<string, unknown>;
}

/**
 * Tokens and cost of one record, read leniently: a field that is not there counts as nothing. Dollars: what the
 * harness reported paying, else the agent's and each judged verdict's tokens at `prices` (the job's table, at the
 * batch discount for a verdict decided through a provider batch; a model without a price adds tokens, never
 * dollars); a reused verdict cost nothing.
 */
export function usageOfRecord(json: unknown, prices: Readonly<Record<string, ModelPrice>> = {}): RecordUsage {
  const r = json as Record<string, unknown>;
  const out: RecordUsage = { agentTokens: null, agentUsd: null, judgeTokens: null, judgeUsd: null };
  const agentModel = (r.system as { model?: unknown } | undefined)?.model;
  const agent = (u: unknown): void => {
    const x = u as { inputTokens?: unknown; outputTokens?: unknown; costUsd?: unknown } | null;
    if (!x) return;
    out.agentTokens = add(out.agentTokens, num(x.inputTokens) + num(x.outputTokens));
    const usd = typeof x.costUsd === 'number' ? x.costUsd : priced(x, agentModel, prices);
    if (usd !== null) out.agentUsd = add(out.agentUsd, usd);
  };
  const judge = (verdicts: unknown): void => {
    for (const v of Array.isArray(verdicts) ? (verdicts as VerdictLike[]) : []) {
      const usage = v.judge?.usage as { inputTokens?: unknown; outputTokens?: unknown } | undefined;
      if (!usage || v.judge?.reused === true) continue;
      out.judgeTokens = add(out.judgeTokens, num(usage.inputTokens) + num(usage.outputTokens));
      const j = v.judge;
      // Decided through a provider batch: billed at the provider's batch discount.
      const batch = j?.batch === true && (j.provider === 'openai' || j.provider === 'anthropic') ? j.provider : null;
      const usd = typeof j?.costUsd === 'number' ? j.costUsd : priced(usage, j?.model, prices, batch);
      if (usd !== null) out.judgeUsd = add(out.judgeUsd, usd);
    }
  };
  agent(r.usage);
  judge(r.verdicts);
  for (const c of Array.isArray(r.checkpoints) ? (r.checkpoints as Record<string, unknown>[]) : []) {
    agent(c.usage);
    judge(c.verdicts);
  }
  judge((r.final as Record<string, unknown> | undefined)?.verdicts);
  return out;
}

const num = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) ? x : 0);

/** Recorded tokens at the model's price (cache reads and writes at theirs); null without one. */
function priced(
  u: Record<string, unknown>,
  model: unknown,
  prices: Readonly<Record<string, ModelPrice>>,
  batch: PriceProvider | null = null,
) {
  const listed = typeof model === 'string' ? prices[model] : undefined;
  if (!listed) return null;
  const price = batch ? batchPriceOf(listed, batch) : listed;
  return priceTokens(
    {
      inputTokens: num(u.inputTokens),
      outputTokens: num(u.outputTokens),
      cachedInputTokens: num(u.cachedInputTokens),
      cacheWriteInputTokens: num(u.cacheWriteInputTokens),
    },
    price,
  );
}
const add = (a: number | null, b: number): number => (a ?? 0) + b;
