// The judge's own vocabulary; create-judge.ts turns a JudgeVerdict into core's JudgeAnswer.
import type { Decision, JudgeSetup } from '@assay/core';

/** A rubric item or criterion to decide. */
export interface JudgeItem {
  id: string;
  text: string;
  /** For agreement reports: target, dimension, importance... */
  group?: string;
  /**
   * Files this criterion is about. When given, only their hashes enter the reuse key, so a
   * checkpoint verdict can be reused for a final package that added unrelated files.
   */
  artifacts?: string[];
  /** What the criterion is judged against (requirements in effect). Default: the task request. */
  contextKey?: string;
}

/** What the judge reads besides the evidence: the request the agent was given. */
export interface JudgeContext {
  taskId: string;
  title?: string;
  /** The request q (StartupBench) or the subtask instructions in effect (DeliverBench). */
  request: string;
  /** Extra evaluator notes (never shown to the agent). */
  notes?: string;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  /** Cached input read (a prompt-cache hit), already counted inside inputTokens. */
  cachedInputTokens: number;
  /** Input written to the prompt cache (Anthropic's cache_creation_input_tokens, billed above the input price), already counted inside inputTokens. */
  cacheWriteInputTokens: number;
}

export type JudgeMode = 'per-item' | 'batched' | 'holistic';

/** Which judge decided: recorded with every verdict. */
export interface JudgeIdentity {
  provider: 'openai' | 'anthropic';
  model: string;
  promptVersion: string;
  mode: JudgeMode;
  /** Null when the provider takes none (Anthropic Messages via SDK 1.x). */
  temperature: number | null;
  seed: number | null;
}

export type UnjudgedReason =
  | 'checks-only'
  | 'malformed'
  | 'incomplete'
  | 'model-error'
  | 'timeout'
  | 'max-steps'
  | 'cancelled'
  | 'no-judge'
  | 'awaiting-batch';

export interface JudgeVerdict {
  itemId: string;
  decision: Decision;
  source: 'judge' | 'none';
  /** Justification, or why the item is unjudged. */
  reason: string;
  /** Anchors the judge cited (file + location). */
  evidence: string[];
  unjudgedReason?: UnjudgedReason;
  judge?: JudgeIdentity & {
    /** 'batched' verdicts decided in the per-item fallback say so here. */
    phase: 'per-item' | 'batch' | 'fallback' | 'holistic';
    /** Judge sessions that included this item (batch attempts, fallback). */
    attempts: number;
    /** Malformed replies seen in those sessions. */
    malformedReplies: number;
    /** This item's share of the tokens of the sessions it was in. */
    usage: TokenUsage;
    /** Wall time of those sessions, ms. */
    latencyMs: number;
    /** Reused from the verdict cache (no model call). */
    reused: boolean;
    cacheKey: string;
    /**
     * Decided verdicts: the model the provider named in the reply that decided it (null: it named none).
     * Absent on unjudged verdicts, and on reused ones whose cache entry predates it.
     */
    reportedModel?: string | null;
    /**
     * Page images shown to the model in the sessions that included this item (view_page calls answered with an
     * image): a StartupBench verdict's `multimodal`. Absent on reused verdicts whose cache entry predates it.
     */
    viewedPages?: number;
    /** Decided from a provider batch's replies (billed at the batch discount). */
    batch?: true;
  };
}

/** One judge session (an agent conversation over one or more items). */
export interface SessionRecord {
  id: string;
  phase: 'per-item' | 'batch' | 'fallback' | 'holistic';
  itemIds: string[];
  attempt: number;
  /** Model requests made (each may include SDK transport retries). */
  calls: number;
  steps: number;
  malformedReplies: number;
  usage: TokenUsage;
  wallMs: number;
  /** Time inside model requests; wallMs - modelMs is our own overhead. */
  modelMs: number;
  outcome: 'complete' | 'partial' | 'malformed' | 'model-error' | 'timeout' | 'max-steps' | 'cancelled';
  error?: string;
  resolvedItemIds: string[];
  /** Page images shown to the model (view_page answered with an image). */
  viewedPages?: number;
}

export interface JudgeRunResult {
  verdicts: JudgeVerdict[];
  sessions: SessionRecord[];
  identity: JudgeIdentity | null;
  /** Batch judging: some turn's reply is not known yet, so these verdicts are partial and not kept. */
  deferred?: true;
  stats: {
    items: number;
    reused: number;
    judged: number;
    unjudged: number;
    sessions: number;
    modelCalls: number;
    malformedReplies: number;
    usage: TokenUsage;
    wallMs: number;
    /** Summed over sessions (they may overlap). */
    modelMs: number;
    /** Wall time outside judge sessions: reuse lookups, verdict assembly, cache writes. */
    bookkeepingMs: number;
  };
}

export type { JudgeSetup };
