// Verdict reuse. A verdict is reused only when the criterion text, the artifacts it
// is about (content hashes), the requirements it is judged against, the evidence-context version
// and the judge setup are all unchanged: the key is a hash of exactly those.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EvidenceFile } from './evidence-source.js';
import { messages } from './messages.js';
import type { JudgeContext, JudgeIdentity, JudgeItem, JudgeVerdict } from './types.js';

export const CACHE_KEY_VERSION = 'assay.verdict-key/v2';

/** A decided judge verdict as stored for reuse. */
export interface CachedVerdict {
  key: string;
  itemId: string;
  decision: 'satisfied' | 'not-satisfied';
  reason: string;
  evidence: string[];
  judge: JudgeIdentity & Pick<NonNullable<JudgeVerdict['judge']>, 'phase' | 'reportedModel' | 'viewedPages'>;
  storedAt: string;
}

export interface VerdictCache {
  /** 'pending': batch judging, another submission's session is deciding this key and waits on its batch. */
  get(key: string): Promise<CachedVerdict | 'pending' | null>;
  put(entry: CachedVerdict): Promise<void>;
  /** Batch judging: these keys wait on a batched turn of the session deciding them (this round). */
  defer?(keys: readonly string[]): void;
  /**
   * The keys a run missed, once it stored whatever it decided (judgeItems calls it, also on failure):
   * lets a cache that holds concurrent lookups of a key until the first finishes let them go.
   */
  release?(keys: readonly string[]): void;
}

/**
 * Concurrent runs asking for the same key wait for the first, then read what it stored: judging
 * identical submissions at once makes the model calls (and gives the verdicts) of judging them one
 * after another. A key whose run ended unjudged is looked up, and judged, by the next in line.
 */
export function withSingleFlight(inner: VerdictCache): VerdictCache {
  const pending = new Map<string, { done: Promise<void>; release: () => void }>();
  const release = (key: string) => {
    pending.get(key)?.release();
    pending.delete(key);
  };
  return {
    async get(key) {
      for (let p = pending.get(key); p; p = pending.get(key)) await p.done;
      let open = () => {};
      const done = new Promise<void>((resolve) => (open = resolve));
      pending.set(key, { done, release: open });
      try {
        const hit = await inner.get(key);
        if (hit) release(key);
        return hit;
      } catch (err) {
        release(key);
        throw err;
      }
    },
    async put(entry) {
      try {
        await inner.put(entry);
      } finally {
        release(entry.key);
      }
    },
    release(keys) {
      for (const k of keys) release(k);
    },
  };
}

/**
 * One round of batch judging. Writes wait for `commit`: rounds replay every session, and a verdict stored by
 * one round would be served, as reused, to the next round's replay of the very session that decided it; only
 * the round that defers nothing commits. Within the round, a key decided is served from what was held, and a
 * key whose session waits on its batch is 'pending', so identical submissions make one session's calls, as
 * the single-flight cache makes them live.
 */
export function withHeldWrites(inner: VerdictCache): VerdictCache & { commit(): Promise<void> } {
  const held = new Map<string, CachedVerdict>();
  const deferred = new Set<string>();
  return {
    async get(key) {
      const hit = await inner.get(key);
      if (hit) return hit;
      const here = held.get(key) ?? (deferred.has(key) ? 'pending' : null);
      // Served here: an inner single-flight cache holding the key for this lookup lets the next one go.
      if (here) inner.release?.([key]);
      return here;
    },
    put: (entry) => {
      held.set(entry.key, entry);
      return Promise.resolve();
    },
    defer: (keys) => {
      for (const k of keys) deferred.add(k);
    },
    release: (keys) => inner.release?.(keys),
    async commit() {
      for (const entry of held.values()) await inner.put(entry);
      held.clear();
    },
  };
}

/** JSON with sorted object keys, so equal content always hashes equally. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

export interface CacheKeyInput {
  item: JudgeItem;
  files: readonly EvidenceFile[];
  context: JudgeContext;
  evidenceContextVersion: string;
  identity: JudgeIdentity;
}

export function verdictCacheKey(k: CacheKeyInput): string {
  const byPath = new Map(k.files.map((f) => [f.path, f.sha256]));
  const artifacts = k.item.artifacts
    ? [...k.item.artifacts].sort().map((p) => [p, byPath.get(p) ?? 'missing'])
    : [...byPath.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const { provider, model, promptVersion, mode, temperature, seed } = k.identity;
  return sha(
    canonical({
      v: CACHE_KEY_VERSION,
      criterion: { text: k.item.text },
      artifacts,
      requirements: sha(k.item.contextKey ?? k.context.request),
      evidenceContextVersion: k.evidenceContextVersion,
      judge: { provider, model, promptVersion, mode, temperature, seed },
    }),
  );
}

export function createMemoryVerdictCache(): VerdictCache & { size(): number } {
  const store = new Map<string, CachedVerdict>();
  return {
    get: async (key) => store.get(key) ?? null,
    put: async (entry) => {
      store.set(entry.key, entry);
    },
    size: () => store.size,
  };
}

/** Content-addressed directory store: <dir>/<key[0..2]>/<key>.json, written atomically. */
export function createDirectoryVerdictCache(dir: string, warn: (msg: string) => void = () => {}): VerdictCache {
  const pathOf = (key: string) => join(dir, key.slice(0, 2), `${key}.json`);
  return {
    async get(key) {
      let text: string;
      try {
        text = await readFile(pathOf(key), 'utf8');
      } catch {
        return null;
      }
      try {
        const entry = JSON.parse(text) as CachedVerdict;
        return entry.key === key ? entry : null;
      } catch {
        warn(messages.cacheCorrupt(pathOf(key)));
        return null;
      }
    },
    async put(entry) {
      const file = pathOf(entry.key);
      await mkdir(join(dir, entry.key.slice(0, 2)), { recursive: true });
      const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(tmp, `${JSON.stringify(entry, null, 2)}\n`);
      await rename(tmp, file);
    },
  };
}
