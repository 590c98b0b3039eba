// Judge items: reuse of cached verdicts, then agent-judge sessions in the configured mode. Every
// item ends decided or explicitly unjudged with a reason. Deterministic checks are not the judge's
// business: evaluation (core's decideItems) runs them first and sends only what they left open.
import type { JudgeSetup } from '@assay/core';
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
  SessionRecord,
  TokenUsage,
  UnjudgedReason,
} from './types.js';
import { verdictCacheKey, type CachedVerdict, type VerdictCache } from './verdict-cache.js';

export interface JudgeItemsInput {
  items: readonly JudgeItem[];
  context: JudgeContext;
  evidence: EvidenceSource;
  setup: JudgeSetup;
  /** The judge model; without one (or in checks-only mode) every item stays unjudged. */
  model?: JudgeModel | null;
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

const zero = (): TokenUsage => ({ inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteInputTokens: 0 });

function judgeIdentity(model: JudgeModel, mode: JudgeIdentity['mode']): JudgeIdentity {
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

type Identity = JudgeIdentity;
type CacheKeys = Map<string, string>;

function unjudgedVerdict(item: JudgeItem, why: UnjudgedReason, reason: string): JudgeVerdict {
  return { itemId: item.id, decision: 'unjudged', source: 'none', reason, evidence: [], unjudgedReason: why };
}

/**
 * Cached verdicts for unchanged items; returns the items still to judge. Batch judging: an item whose key another
 * submission's session is still deciding goes in `waiting` (judged by nobody here; served from that one later).
 */
async function reuseCached(
  items: readonly JudgeItem[],
  keys: CacheKeys,
  cache: VerdictCache | undefined,
  verdicts: Map<string, JudgeVerdict>,
  waiting: Set<string>,
): Promise<JudgeItem[]> {
  const missed = new Set<string>();
  // Looked up in key order: a single-flight cache then holds keys in one global order, so two runs
  // never wait on each other's keys.
  const byKey = [...items].sort((a, b) => ((keys.get(a.id) ?? '') < (keys.get(b.id) ?? '') ? -1 : 1));
  const looked = new Map<string, CachedVerdict | 'pending' | null>();
  for (const item of byKey) {
    const key = keys.get(item.id) ?? '';
    // Each key once per run: a second lookup of a key this run holds would wait on itself.
    const hit = looked.has(key) ? (looked.get(key) ?? null) : cache ? await cache.get(key) : null;
    looked.set(key, hit);
    if (hit === 'pending') {
      waiting.add(item.id);
      verdicts.set(item.id, unjudgedVerdict(item, 'incomplete', messages.deferred()));
      continue;
    }
    if (!hit) {
      missed.add(item.id);
      continue;
    }
    const reusedMeta = { attempts: 0, malformedReplies: 0, usage: zero(), latencyMs: 0, reused: true, cacheKey: key };
    verdicts.set(item.id, {
      itemId: item.id,
      decision: hit.decision,
      source: 'judge',
      reason: hit.reason,
      evidence: hit.evidence,
      judge: { ...hit.judge, ...reusedMeta },
    });
  }
  return items.filter((i) => missed.has(i.id));
}

/** This item's share of the sessions it was in. */
function itemMeta(
  item: JudgeItem,
  sessions: readonly SessionRecord[],
  identity: Identity,
  key: string,
  phase?: string,
) {
  const mine = sessions.filter((s) => s.itemIds.includes(item.id));
  const usage = zero();
  for (const s of mine) {
    usage.inputTokens += s.usage.inputTokens / s.itemIds.length;
    usage.outputTokens += s.usage.outputTokens / s.itemIds.length;
    usage.cachedInputTokens += s.usage.cachedInputTokens / s.itemIds.length;
    usage.cacheWriteInputTokens += s.usage.cacheWriteInputTokens / s.itemIds.length;
  }
  return {
    meta: {
      ...identity,
      phase: (phase ?? mine.at(-1)?.phase ?? 'per-item') as SessionRecord['phase'],
      attempts: mine.length,
      malformedReplies: mine.reduce((n, s) => n + s.malformedReplies, 0),
      usage,
      latencyMs: mine.reduce((n, s) => n + s.wallMs, 0),
      reused: false,
      cacheKey: key,
      viewedPages: mine.reduce((n, s) => n + (s.viewedPages ?? 0), 0),
    },
    mine,
  };
}

/** Run the sessions of the configured mode and turn their outcome into verdicts (cached when decided). */
async function judgeFresh(
  input: JudgeItemsInput,
  toJudge: readonly JudgeItem[],
  ctx: { model: JudgeModel; identity: Identity; keys: CacheKeys; verdicts: Map<string, JudgeVerdict> },
): Promise<{ sessions: SessionRecord[]; deferred: boolean }> {
  const { setup } = input;
  let done = 0;
  let resolved = 0;
  const out = await scheduleSessions({
    mode: ctx.identity.mode,
    items: toJudge,
    model: ctx.model,
    evidence: input.evidence,
    context: input.context,
    overview: await input.evidence.renderOverview(),
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
      input.onProgress?.({ sessions: done, decided: ctx.verdicts.size + resolved, total: input.items.length });
    },
  });
  for (const item of toJudge) {
    const got = out.decided.get(item.id);
    const key = ctx.keys.get(item.id) ?? '';
    const { meta: m, mine } = itemMeta(item, out.sessions, ctx.identity, key, got?.phase);
    const meta = ctx.model.batch ? { ...m, batch: true as const } : m;
    if (!got && out.deferred) {
      // Batch judging waits on a turn of its session: another submission with this key waits for it too.
      ctx.verdicts.set(item.id, unjudgedVerdict(item, 'incomplete', messages.deferred()));
      input.cache?.defer?.([key]);
      continue;
    }
    if (!got) {
      const u = unjudgedFrom(mine);
      ctx.verdicts.set(item.id, { ...unjudgedVerdict(item, u.why, u.reason), judge: meta });
      continue;
    }
    const v = got.verdict;
    const decided = { decision: v.decision, reason: v.justification, evidence: v.evidence };
    const { reportedModel } = got;
    ctx.verdicts.set(item.id, { itemId: item.id, source: 'judge', ...decided, judge: { ...meta, reportedModel } });
    const stored = { key, itemId: item.id, ...decided, storedAt: new Date().toISOString() };
    // Kept with the entry, so a verdict reused later still says which model decided it.
    const { phase, viewedPages } = meta;
    await input.cache?.put({ ...stored, judge: { ...ctx.identity, phase, reportedModel, viewedPages } });
  }
  return { sessions: out.sessions, deferred: out.deferred };
}

function summarize(
  items: readonly JudgeItem[],
  verdicts: Map<string, JudgeVerdict>,
  sessions: readonly SessionRecord[],
  timing: { started: number; scheduleMs: number },
): JudgeRunResult['stats'] & { ordered: JudgeVerdict[] } {
  const ordered = items.map((i) => verdicts.get(i.id)).filter((v): v is JudgeVerdict => v !== undefined);
  const usage = zero();
  for (const s of sessions) {
    usage.inputTokens += s.usage.inputTokens;
    usage.outputTokens += s.usage.outputTokens;
    usage.cachedInputTokens += s.usage.cachedInputTokens;
    usage.cacheWriteInputTokens += s.usage.cacheWriteInputTokens;
  }
  const now = performance.now();
  return {
    ordered,
    items: items.length,
    reused: ordered.filter((v) => v.judge?.reused).length,
    judged: ordered.filter((v) => v.source === 'judge' && !v.judge?.reused).length,
    unjudged: ordered.filter((v) => v.decision === 'unjudged').length,
    sessions: sessions.length,
    modelCalls: sessions.reduce((n, s) => n + s.calls, 0),
    malformedReplies: sessions.reduce((n, s) => n + s.malformedReplies, 0),
    usage,
    wallMs: now - timing.started,
    modelMs: sessions.reduce((n, s) => n + s.modelMs, 0),
    bookkeepingMs: now - timing.started - timing.scheduleMs,
  };
}

export async function judgeItems(input: JudgeItemsInput): Promise<JudgeRunResult> {
  const started = performance.now();
  const { items, setup } = input;
  const verdicts = new Map<string, JudgeVerdict>();
  const model = setup.mode === 'checks-only' ? null : (input.model ?? null);
  const identity = model && setup.mode !== 'checks-only' ? judgeIdentity(model, setup.mode) : null;
  const sessions: SessionRecord[] = [];
  let scheduleMs = 0;
  let deferred = false;
  if (!identity || !model) {
    const why: UnjudgedReason = setup.mode === 'checks-only' ? 'checks-only' : 'no-judge';
    const reason = why === 'checks-only' ? messages.checksOnly() : messages.noJudge();
    for (const item of items) verdicts.set(item.id, unjudgedVerdict(item, why, reason));
  } else {
    const files = await input.evidence.listFiles();
    const { context, evidenceContextVersion } = input;
    const keys: CacheKeys = new Map(
      items.map((item) => [item.id, verdictCacheKey({ item, files, context, evidenceContextVersion, identity })]),
    );
    const waiting = new Set<string>();
    const toJudge = await reuseCached(items, keys, input.cache, verdicts, waiting);
    deferred = waiting.size > 0;
    try {
      if (toJudge.length > 0) {
        const t0 = performance.now();
        const fresh = await judgeFresh(input, toJudge, { model, identity, keys, verdicts });
        sessions.push(...fresh.sessions);
        deferred ||= fresh.deferred;
        scheduleMs = performance.now() - t0;
      }
    } finally {
      input.cache?.release?.([...new Set(toJudge.map((i) => keys.get(i.id) ?? ''))]);
    }
  }
  const { ordered, ...stats } = summarize(items, verdicts, sessions, { started, scheduleMs });
  return { verdicts: ordered, sessions, identity, stats, ...(deferred ? { deferred: true as const } : {}) };
}
