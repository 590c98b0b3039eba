// Prefix-cache simulator: bills a prompt's cache reads and writes by each provider's rules,
// so a test can show what a prompt layout saves. Entries are keyed by model and the sha256 of
// a prefix's canonical text (prompt-elements.ts); a prefix's tokens are the estimate of that
// text (estimate-tokens.ts). Time comes from an injectable clock.
import { createHash } from 'node:crypto';
import { CHARS_PER_TOKEN, tokensForChars } from './estimate-tokens.js';
import type { PromptElement } from './prompt-elements.js';
import type { ApiKind } from './types.js';

/** What the cache did for one prompt. Every count is in tokens; prompt = read + write + uncached. */
export interface CacheAccounting {
  rule: 'anthropic' | 'openai';
  /** The whole prompt. */
  prompt: number;
  /** Read from the cache (Anthropic cache_read_input_tokens, OpenAI cached_tokens). */
  read: number;
  /** Written to the cache (Anthropic cache_creation_input_tokens; OpenAI bills none). */
  write: number;
  /** The part of `write` written with a 1 h TTL. */
  write1h: number;
  /** Neither read nor written (Anthropic input_tokens). */
  uncached: number;
}

export interface PromptCache {
  /** Account one request's prompt and update the cache; null for an API whose caching is not simulated (Gemini). */
  account(api: ApiKind, model: string, elements: PromptElement[]): CacheAccounting | null;
  /** Entries held (expired ones are dropped at each `account`). */
  readonly size: number;
  clear(): void;
}

/**
 * Anthropic's documented minimum cacheable prompt length: a prefix shorter than this is never
 * cached, even at a breakpoint. First matching model pattern wins. (Newer models document higher
 * minimums, e.g. 4096 for Haiku 4.5; not modelled.)
 */
const ANTHROPIC_MIN_TOKENS: readonly (readonly [RegExp, number])[] = [
  [/haiku/i, 2048],
  [/(?:)/, 1024],
];
/** Anthropic also checks for hits at the block boundaries up to this many blocks before a breakpoint. */
const ANTHROPIC_LOOKBACK_BLOCKS = 20;
const ANTHROPIC_TTL_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 } as const;
/** OpenAI caches prompts of at least 1024 tokens, the cached part growing in steps of 128. */
const OPENAI_MIN_TOKENS = 1024;
const OPENAI_STEP_TOKENS = 128;
/** OpenAI says 5–10 min of inactivity (up to 1 h off-peak); the simulator keeps a prefix 5 min after its last use. */
const OPENAI_RETENTION_MS = 5 * 60_000;

interface Entry {
  expires: number;
  ttlMs: number;
}

export function anthropicMinCacheableTokens(model: string): number {
  return ANTHROPIC_MIN_TOKENS.find(([re]) => re.test(model))?.[1] ?? 1024;
}

type Entries = Map<string, Entry>;

/** The entry under `key` while it has not expired at `t`. */
function liveEntry(entries: Entries, key: string | undefined, t: number): Entry | undefined {
  const e = key === undefined ? undefined : entries.get(key);
  return e && e.expires > t ? e : undefined;
}

/** Breakpoints: read the longest cached prefix ending at (or shortly before) one, write the later ones. */
function accountAnthropic(entries: Entries, model: string, elements: PromptElement[], t: number): CacheAccounting {
  const live = (key: string | undefined) => liveEntry(entries, key, t);
  const ends: number[] = [];
  const keys: string[] = [];
  const hash = createHash('sha256').update(`anthropic\0${model}\0`);
  let chars = 0;
  for (const e of elements) {
    hash.update(e.text);
    chars += e.text.length;
    ends.push(chars);
    keys.push(hash.copy().digest('hex'));
  }
  const tokensThrough = (i: number) => (i < 0 ? 0 : tokensForChars(ends[i] ?? 0));
  const breakpoints = elements.flatMap((e, i) => (e.breakpoint ? [i] : []));

  let readAt = -1;
  for (const b of breakpoints)
    for (let j = b; j >= Math.max(0, b - ANTHROPIC_LOOKBACK_BLOCKS) && j > readAt; j -= 1)
      if (live(keys[j])) {
        readAt = j;
        break;
      }
  // A read refreshes the entry's TTL (and those of this prompt's earlier breakpoints still cached).
  for (const i of [readAt, ...breakpoints.filter((b) => b < readAt)]) {
    const e = live(keys[i]);
    if (e) e.expires = t + e.ttlMs;
  }

  const min = anthropicMinCacheableTokens(model);
  let writtenTo = readAt;
  let write1h = 0;
  for (const b of breakpoints) {
    const ttl = elements[b]?.breakpoint ?? '5m';
    if (b <= readAt || tokensThrough(b) < min) continue;
    entries.set(keys[b] ?? '', { expires: t + ANTHROPIC_TTL_MS[ttl], ttlMs: ANTHROPIC_TTL_MS[ttl] });
    if (ttl === '1h') write1h += tokensThrough(b) - tokensThrough(writtenTo);
    writtenTo = b;
  }
  const prompt = tokensForChars(chars);
  const read = tokensThrough(readAt);
  const write = tokensThrough(writtenTo) - read;
  return { rule: 'anthropic', prompt, read, write, write1h, uncached: prompt - read - write };
}

/** Automatic: read the longest earlier-seen prefix at a 128-token step from 1024; keep every step of this one. */
function accountOpenAi(entries: Entries, model: string, elements: PromptElement[], t: number): CacheAccounting {
  const text = elements.map((e) => e.text).join('');
  const prompt = tokensForChars(text.length);
  const hash = createHash('sha256').update(`openai\0${model}\0`);
  let hashed = 0;
  let read = 0;
  for (let k = OPENAI_MIN_TOKENS; k <= prompt; k += OPENAI_STEP_TOKENS) {
    const end = Math.min(k * CHARS_PER_TOKEN, text.length);
    hash.update(text.slice(hashed, end));
    hashed = end;
    const key = hash.copy().digest('hex');
    if (liveEntry(entries, key, t)) read = k;
    entries.set(key, { expires: t + OPENAI_RETENTION_MS, ttlMs: OPENAI_RETENTION_MS });
  }
  return { rule: 'openai', prompt, read, write: 0, write1h: 0, uncached: prompt - read };
}

export function createPromptCache(options: { now?: () => number } = {}): PromptCache {
  const now = options.now ?? Date.now;
  const entries: Entries = new Map();
  return {
    account(api, model, elements) {
      if (api === 'gemini') return null;
      const t = now();
      for (const [key, e] of entries) if (e.expires <= t) entries.delete(key);
      return api === 'anthropic'
        ? accountAnthropic(entries, model, elements, t)
        : accountOpenAi(entries, model, elements, t);
    },
    get size() {
      return entries.size;
    },
    clear: () => entries.clear(),
  };
}
