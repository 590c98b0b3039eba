// A record as a finished unit, and the tokens and cost it holds (agent and judge kept apart).
import { projectRecordSchema, trialRecordSchema } from '@assay/core';
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

/** Tokens and cost of one record, read leniently: a field that is not there counts as nothing. */
export function usageOfRecord(json: unknown): RecordUsage {
  const r = json as Record<string, unknown>;
  const out: RecordUsage = { agentTokens: null, agentUsd: null, judgeTokens: null, judgeUsd: null };
  const agent = (u: unknown): void => {
    const x = u as { inputTokens?: unknown; outputTokens?: unknown; costUsd?: unknown } | null;
    if (!x) return;
    out.agentTokens = add(out.agentTokens, num(x.inputTokens) + num(x.outputTokens));
    if (typeof x.costUsd === 'number') out.agentUsd = add(out.agentUsd, x.costUsd);
  };
  const judge = (verdicts: unknown): void => {
    for (const v of Array.isArray(verdicts) ? (verdicts as VerdictLike[]) : []) {
      const usage = v.judge?.usage as { inputTokens?: unknown; outputTokens?: unknown } | undefined;
      if (usage) out.judgeTokens = add(out.judgeTokens, num(usage.inputTokens) + num(usage.outputTokens));
      if (typeof v.judge?.costUsd === 'number') out.judgeUsd = add(out.judgeUsd, v.judge.costUsd);
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
const add = (a: number | null, b: number): number => (a ?? 0) + b;
