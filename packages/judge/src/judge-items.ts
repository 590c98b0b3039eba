// Judge a rubric: deterministic checks first, then reuse of unchanged verdicts, then agent-judge
// sessions in the configured mode. Every item ends decided or explicitly unjudged with a reason.
import type { CheckOutcome, JudgeSetup } from '@assay/core';
import type { EvidenceSource } from './evidence-source.js';
import type { JudgeModel } from './judge-model.js';
import { scheduleSessions } from './judge-modes.js';
import { messages } from './messages.js';
import { PROMPT_VERSION } from './prompts.js';
import type {
  JudgeContext,
  JudgeIdentity,
  JudgeItem,
  JudgeRunResult,
  JudgeVerdict,
  RunCheck,
  SessionRecord,
  TokenUsage,
  UnjudgedReason,
} from './types.js';
import { verdictCacheKey, type VerdictCache } from './verdict-cache.js';

export interface JudgeItemsInput {
  items: readonly JudgeItem[];
  context: JudgeContext;
  evidence: EvidenceSource;
  setup: JudgeSetup;
  /** The judge model; may be omitted in checks-only mode. */
  model?: JudgeModel | null;
  /** Evaluates a deterministic check over the submission (packages/evidence). */
  runCheck?: RunCheck;
  cache?: VerdictCache;
  /** Version of the evidence renderer and anything else the judge sees besides files and request. */
  evidenceContextVersion: string;
  /** One-item fallback sessions per unresolved criterion after batching (default 1). */
  fallbackAttempts?: number;
  /** Corrections offered after a malformed reply within a session (default 1). */
  correctionTurns?: number;
  signal?: AbortSignal;
  /** Called after each session (e.g. a Temporal heartbeat). */
  onProgress?: (p: { sessions: number; decided: number; total: number }) => void;
}

const zero = (): TokenUsage => ({ inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 });

export function judgeIdentity(model: JudgeModel, mode: JudgeIdentity['mode']): JudgeIdentity {
  return {
    provider: model.provider,
    model: model.model,
    promptVersion: PROMPT_VERSION,
    mode,
    temperature: model.temperature,
    seed: model.seed,
  };
}

function unjudgedFrom(sessions: SessionRecord[]): { why: UnjudgedReason; reason: string } {
  const last = sessions.at(-1);
  const malformed = sessions.reduce((n, s) => n + s.malformedReplies, 0);
  if (!last) return { why: 'no-judge', reason: messages.noJudge() };
  switch (last.outcome) {
    case 'timeout':
      return { why: 'timeout', reason: last.error ?? 'timeout' };
    case 'model-error':
      return { why: 'model-error', reason: messages.modelError(last.error ?? 'unknown') };
    case 'cancelled':
      return { why: 'cancelled', reason: messages.cancelled() };
    case 'max-steps':
      return { why: 'max-steps', reason: messages.maxSteps(last.steps) };
    case 'malformed':
      return { why: 'malformed', reason: messages.malformed(malformed) };
    default:
      return malformed > 0
        ? { why: 'malformed', reason: messages.malformed(malformed) }
        : { why: 'incomplete', reason: messages.incomplete() };
  }
}

async function runChecks(items: readonly JudgeItem[], runCheck: RunCheck | undefined) {
  const outcomes = new Map<string, CheckOutcome>();
  if (!runCheck) return outcomes;
  for (const item of items) {
    if (!item.check) continue;
    try {
      outcomes.set(item.id, await runCheck(item.check));
    } catch (err) {
      outcomes.set(item.id, { status: 'cannot-evaluate', reason: (err as Error).message, evidence: [] });
    }
  }
  return outcomes;
}

export async function judgeItems(input: JudgeItemsInput): Promise<JudgeRunResult> {
  const started = performance.now();
  const { items, setup } = input;
  const verdicts = new Map<string, JudgeVerdict>();
  const checks = await runChecks(items, input.runCheck);
  const checkInfo = (item: JudgeItem) => {
    const o = checks.get(item.id);
    return item.check && o ? { check: { kind: item.check.kind, status: o.status, reason: o.reason } } : {};
  };

  const forJudge: JudgeItem[] = [];
  for (const item of items) {
    const o = checks.get(item.id);
    if (o && o.status !== 'cannot-evaluate') {
      verdicts.set(item.id, {
        itemId: item.id,
        decision: o.status,
        source: 'check',
        reason: o.reason,
        evidence: o.evidence,
        ...checkInfo(item),
      });
    } else forJudge.push(item);
  }

  const model = setup.mode === 'checks-only' ? null : (input.model ?? null);
  const identity = model && setup.mode !== 'checks-only' ? judgeIdentity(model, setup.mode) : null;
  const sessions: SessionRecord[] = [];
  let scheduleMs = 0;

  if (!identity || !model) {
    for (const item of forJudge) {
      const o = checks.get(item.id);
      const why: UnjudgedReason = setup.mode === 'checks-only' ? 'checks-only' : 'no-judge';
      const reason = o
        ? messages.checkCannotEvaluate(o.reason)
        : why === 'checks-only'
          ? messages.checksOnly()
          : messages.noJudge();
      verdicts.set(item.id, {
        itemId: item.id,
        decision: 'unjudged',
        source: 'none',
        reason,
        evidence: [],
        unjudgedReason: why,
        ...checkInfo(item),
      });
    }
  } else {
    const files = await input.evidence.listFiles();
    const keys = new Map(
      forJudge.map((item) => [
        item.id,
        verdictCacheKey({
          item,
          files,
          context: input.context,
          evidenceContextVersion: input.evidenceContextVersion,
          identity,
        }),
      ]),
    );
    const toJudge: JudgeItem[] = [];
    for (const item of forJudge) {
      const key = keys.get(item.id) ?? '';
      const hit = input.cache ? await input.cache.get(key) : null;
      if (!hit) {
        toJudge.push(item);
        continue;
      }
      verdicts.set(item.id, {
        itemId: item.id,
        decision: hit.decision,
        source: 'judge',
        reason: hit.reason,
        evidence: hit.evidence,
        ...checkInfo(item),
        judge: {
          ...hit.judge,
          attempts: 0,
          malformedReplies: 0,
          usage: zero(),
          latencyMs: 0,
          reused: true,
          cacheKey: key,
        },
      });
    }

    if (toJudge.length > 0) {
      const overview = await input.evidence.renderOverview();
      let done = 0;
      let resolved = 0;
      const t0 = performance.now();
      const out = await scheduleSessions({
        mode: identity.mode,
        items: toJudge,
        model,
        evidence: input.evidence,
        context: input.context,
        overview,
        batchSize: setup.batchSize,
        concurrency: setup.concurrency,
        attempts: setup.attempts,
        fallbackAttempts: input.fallbackAttempts ?? 1,
        maxSteps: setup.maxSteps,
        correctionTurns: input.correctionTurns ?? 1,
        signal: input.signal,
        onSession: (rec) => {
          done += 1;
          resolved += rec.resolvedItemIds.length;
          input.onProgress?.({ sessions: done, decided: verdicts.size + resolved, total: items.length });
        },
      });
      scheduleMs = performance.now() - t0;
      sessions.push(...out.sessions);
      for (const item of toJudge) {
        const mine = out.sessions.filter((s) => s.itemIds.includes(item.id));
        const share = zero();
        for (const s of mine) {
          share.inputTokens += s.usage.inputTokens / s.itemIds.length;
          share.outputTokens += s.usage.outputTokens / s.itemIds.length;
          share.cachedInputTokens += s.usage.cachedInputTokens / s.itemIds.length;
        }
        const got = out.decided.get(item.id);
        const key = keys.get(item.id) ?? '';
        const meta = {
          ...identity,
          phase: got?.phase ?? mine.at(-1)?.phase ?? 'per-item',
          attempts: mine.length,
          malformedReplies: mine.reduce((n, s) => n + s.malformedReplies, 0),
          usage: share,
          latencyMs: mine.reduce((n, s) => n + s.wallMs, 0),
          reused: false,
          cacheKey: key,
        };
        if (got) {
          const v = got.verdict;
          verdicts.set(item.id, {
            itemId: item.id,
            decision: v.decision,
            source: 'judge',
            reason: v.justification,
            evidence: v.evidence,
            ...checkInfo(item),
            judge: meta,
          });
          await input.cache?.put({
            key,
            itemId: item.id,
            decision: v.decision,
            reason: v.justification,
            evidence: v.evidence,
            judge: { ...identity, phase: meta.phase },
            storedAt: new Date().toISOString(),
          });
        } else {
          const u = unjudgedFrom(mine);
          verdicts.set(item.id, {
            itemId: item.id,
            decision: 'unjudged',
            source: 'none',
            reason: u.reason,
            evidence: [],
            unjudgedReason: u.why,
            ...checkInfo(item),
            judge: meta,
          });
        }
      }
    }
  }

  const ordered = items.map((i) => verdicts.get(i.id)).filter((v): v is JudgeVerdict => v !== undefined);
  const usage = zero();
  for (const s of sessions) {
    usage.inputTokens += s.usage.inputTokens;
    usage.outputTokens += s.usage.outputTokens;
    usage.cachedInputTokens += s.usage.cachedInputTokens;
  }
  return {
    verdicts: ordered,
    sessions,
    identity,
    stats: {
      items: items.length,
      byCheck: ordered.filter((v) => v.source === 'check').length,
      reused: ordered.filter((v) => v.judge?.reused).length,
      judged: ordered.filter((v) => v.source === 'judge' && !v.judge?.reused).length,
      unjudged: ordered.filter((v) => v.decision === 'unjudged').length,
      sessions: sessions.length,
      modelCalls: sessions.reduce((n, s) => n + s.calls, 0),
      malformedReplies: sessions.reduce((n, s) => n + s.malformedReplies, 0),
      usage,
      wallMs: performance.now() - started,
      modelMs: sessions.reduce((n, s) => n + s.modelMs, 0),
      bookkeepingMs: performance.now() - started - scheduleMs,
    },
  };
}
