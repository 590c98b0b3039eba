// Per-file extraction results reused by content: a file with the same bytes, name and budgets
// parses to the same evidence, so re-judging (many trials with identical deliverables, several
// judge setups) parses each distinct file once. Memory first (bounded by bytes), then an optional
// folder that outlives the process. Failures (a parser that died or timed out) are never kept.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EvidenceLimits } from './limits.js';
import type { MeasuredResult } from './isolate/run-isolated.js';

/** Bump when extraction changes what it produces for the same file, so older entries are not served. */
export const EXTRACTION_CACHE_VERSION = 'assay.extraction/v1';

export interface ExtractionCacheStats {
  /** Files parsed because no entry held them. */
  parsed: number;
  /** Files served from memory or the folder. */
  reused: number;
}

export interface ExtractionCache {
  get(key: string): Promise<MeasuredResult | null>;
  put(key: string, value: MeasuredResult): Promise<void>;
  readonly stats: ExtractionCacheStats;
}

export function extractionCacheKey(k: {
  sha256: string;
  name: string;
  limits: EvidenceLimits;
  maxEvidenceBytes: number;
  sizeScope: 'file' | 'submission';
}): string {
  const text = JSON.stringify([EXTRACTION_CACHE_VERSION, k.sha256, k.name, k.limits, k.maxEvidenceBytes, k.sizeScope]);
  return createHash('sha256').update(text).digest('hex');
}

/** Whether a result may be reused: the parser answered (not a death, time-out or refusal to start). */
export const reusableResult = (r: MeasuredResult): boolean => r.result.evidence !== null;

export function createExtractionCache(opts: { dir?: string | null; maxMemoryBytes?: number } = {}): ExtractionCache {
  const maxBytes = opts.maxMemoryBytes ?? 256 * 1024 * 1024;
  const memory = new Map<string, MeasuredResult>();
  let held = 0;
  const stats: ExtractionCacheStats = { parsed: 0, reused: 0 };
  const remember = (key: string, value: MeasuredResult) => {
    if (memory.has(key) || value.bytes > maxBytes) return;
    memory.set(key, value);
    held += value.bytes;
    // Oldest first: Map keeps insertion order.
    for (const [k, v] of memory) {
      if (held <= maxBytes) break;
      memory.delete(k);
      held -= v.bytes;
    }
  };
  const fileOf = (key: string) => (opts.dir ? join(opts.dir, key.slice(0, 2), `${key}.json`) : null);
  return {
    stats,
    async get(key) {
      const hit = memory.get(key) ?? (await readEntry(fileOf(key)));
      if (hit) {
        stats.reused++;
        remember(key, hit);
      } else stats.parsed++;
      return hit;
    },
    async put(key, value) {
      if (!reusableResult(value)) return;
      remember(key, value);
      const file = fileOf(key);
      if (file) await writeEntry(file, value);
    },
  };
}

async function readEntry(file: string | null): Promise<MeasuredResult | null> {
  if (!file) return null;
  try {
    return JSON.parse(await readFile(file, 'utf8')) as MeasuredResult;
  } catch {
    // Missing, or torn by a crash mid-write on a filesystem without atomic rename: parse again.
    return null;
  }
}

let writes = 0;

async function writeEntry(file: string, value: MeasuredResult): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  const tmp = `${file}.${process.pid}.${++writes}.tmp`;
  await writeFile(tmp, JSON.stringify(value));
  await rename(tmp, file);
}
