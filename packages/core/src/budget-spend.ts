// What a unit of a job spent (tokens by model for agents and judges, agent time) and the job's
// running total against its budget. Pure: the trial and project workflows summarize their record's
// usage, the job workflow prices it with the resolved price table.
import type { ModelPrice } from './model-prices.js';
import type { Usage } from './trial-record.js';

export interface ModelUsage {
  model: string | null;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** Input written to a prompt cache (judges over Anthropic; 0 where not recorded). */
  cacheWriteInputTokens: number;
  /** What the harness itself reported paying, when it did (used instead of the price table). */
  costUsd: number | null;
}

export interface UnitUsage {
  agent: ModelUsage[];
  judge: ModelUsage[];
  agentSeconds: number;
}

export interface Spend {
  usd: number;
  tokens: number;
  agentHours: number;
  /** Tokens of models with no price (in the repo's table or the job's): not in `usd`. */
  unpricedTokens: number;
}

export interface Budget {
  usd?: number;
  tokens?: number;
  agentHours?: number;
  /** Which spend counts against it. */
  covers: 'all' | 'agents' | 'judges';
}

export const NO_SPEND: Spend = { usd: 0, tokens: 0, agentHours: 0, unpricedTokens: 0 };

interface RecordedPart {
  usage: Usage | null;
  agentSeconds: number;
  verdicts: { judge?: Record<string, unknown> }[];
}

/** A record's (or a project's checkpoints') usage: the agent's, and each judged verdict's share. */
export function unitUsageOf(parts: RecordedPart[], agentModel: string | null): UnitUsage {
  const out: UnitUsage = { agent: [], judge: [], agentSeconds: 0 };
  for (const p of parts) {
    out.agentSeconds += p.agentSeconds;
    if (p.usage) out.agent.push({ model: agentModel, cacheWriteInputTokens: 0, ...p.usage });
    for (const v of p.verdicts) {
      const j = v.judge as { model?: string; reused?: boolean; usage?: Partial<Usage> } | undefined;
      if (!j?.usage || j.reused) continue;
      out.judge.push({
        model: j.model ?? null,
        inputTokens: j.usage.inputTokens ?? 0,
        outputTokens: j.usage.outputTokens ?? 0,
        cachedInputTokens: j.usage.cachedInputTokens ?? 0,
        cacheWriteInputTokens: (j.usage as { cacheWriteInputTokens?: number }).cacheWriteInputTokens ?? 0,
        costUsd: null,
      });
    }
  }
  return out;
}

export function priceUsage(u: UnitUsage, prices: Record<string, ModelPrice>, covers: Budget['covers']): Spend {
  const models = [...(covers === 'judges' ? [] : u.agent), ...(covers === 'agents' ? [] : u.judge)];
  const spend = { ...NO_SPEND, agentHours: covers === 'judges' ? 0 : u.agentSeconds / 3600 };
  for (const m of models) {
    const tokens = m.inputTokens + m.outputTokens;
    spend.tokens += tokens;
    const price = m.model ? prices[m.model] : undefined;
    if (m.costUsd !== null) spend.usd += m.costUsd;
    else if (price) spend.usd += priceTokens(m, price);
    else spend.unpricedTokens += tokens;
  }
  return spend;
}

/**
 * Dollars for one model's tokens: input read from the prompt cache and input written to it at their own prices
 * (the input price where the table has none), the rest of the input at the input price. Both are counted inside
 * inputTokens.
 */
export function priceTokens(
  u: { inputTokens: number; outputTokens: number; cachedInputTokens: number; cacheWriteInputTokens?: number },
  price: ModelPrice,
): number {
  const cached = Math.min(u.inputTokens, u.cachedInputTokens);
  const written = Math.min(u.inputTokens - cached, u.cacheWriteInputTokens ?? 0);
  const plain = u.inputTokens - cached - written;
  return (
    (plain * price.inputPerMTok +
      cached * (price.cachedInputPerMTok ?? price.inputPerMTok) +
      written * (price.cacheWritePerMTok ?? price.inputPerMTok) +
      u.outputTokens * price.outputPerMTok) /
    1e6
  );
}

export function addSpend(a: Spend, b: Spend): Spend {
  return {
    usd: a.usd + b.usd,
    tokens: a.tokens + b.tokens,
    agentHours: a.agentHours + b.agentHours,
    unpricedTokens: a.unpricedTokens + b.unpricedTokens,
  };
}

/** Why the budget is reached (`usd 251.20 of 250`), or null while it is not. */
export function budgetReached(spend: Spend, budget: Budget | undefined): string | null {
  if (!budget) return null;
  const over = (['usd', 'tokens', 'agentHours'] as const).filter((k) => {
    const limit = budget[k];
    return limit !== undefined && spend[k] >= limit;
  });
  if (over.length === 0) return null;
  const shown = over.map((k) => `${k} ${round(spend[k])} of ${budget[k]}`);
  return `budget reached (${budget.covers}): ${shown.join(', ')}`;
}

const round = (n: number): number => Math.round(n * 1000) / 1000;
