// Text matching for checks and search: whitespace- and Unicode-normalised substring matching that
// matches numbers as whole tokens by value ("4841.5" finds "4,841.5" and "4,841.50", not "14841.5"), and
// regular expressions run under a time limit (a rubric pattern must not hang a worker on hostile text).
import vm from 'node:vm';
import type { TextUnit } from './types.js';

export function normalize(s: string, caseSensitive: boolean): string {
  const n = s
    .normalize('NFKC')
    .replace(/[\s\u00a0\u2000-\u200b\u202f\u205f\u3000]+/g, ' ')
    .trim();
  return caseSensitive ? n : n.toLowerCase();
}

const NUMERIC = /^[-+−]?(\d{1,3}([,\s\u00a0\u202f]\d{3})+|\d+)(\.\d+)?$/;
const NUMBER_TOKEN = /[-+−]?\d[\d,\u00a0\u202f]*(?:\.\d+)?/g;

function numberValue(token: string): number {
  return Number(token.replace(/[,\s\u00a0\u202f]/g, '').replace('−', '-'));
}

/** Whether `needle` appears in `text` (normalised; a numeric needle also matches equal numbers). */
export function containsText(text: string, needle: string, caseSensitive = false): boolean {
  const hay = normalize(text, caseSensitive);
  const want = normalize(needle, caseSensitive);
  if (want === '') return false;
  // A number is matched as a whole token by value, never as a substring ("4841.5" is not in "14841.5").
  if (!NUMERIC.test(want)) return hay.includes(want);
  const value = numberValue(want);
  for (const m of hay.matchAll(NUMBER_TOKEN)) {
    const token = m[0].replace(/[,\s\u00a0\u202f]+$/, '');
    const before = m.index === 0 ? '' : hay[m.index - 1]!;
    if (/[\d.]/.test(before)) continue;
    if (numberValue(token) === value || numberValue(token.replace(/^[-+−]/, '')) === value) return true;
  }
  return false;
}

export class PatternError extends Error {
  constructor(
    readonly kind: 'invalid' | 'timeout',
    message: string,
  ) {
    super(message);
  }
}

/** Accepts a leading `(?i)` (common in rubric files) as the case-insensitive flag. */
function compilePattern(pattern: string): { source: string; flags: string } {
  let source = pattern;
  let flags = 'mu';
  if (source.startsWith('(?i)')) {
    source = source.slice(4);
    flags += 'i';
  }
  try {
    new RegExp(source, flags);
  } catch (err) {
    throw new PatternError('invalid', err instanceof Error ? err.message : String(err));
  }
  return { source, flags };
}

export interface PatternHit {
  unit: number;
  match: string;
  groups: string[];
}

/** First match of `pattern` in each unit (up to maxHits), evaluated in a sandbox with a time limit. */
export function findPattern(
  units: TextUnit[],
  pattern: string,
  opts: { maxHits?: number; timeoutMs?: number } = {},
): PatternHit[] {
  const { source, flags } = compilePattern(pattern);
  const ctx = vm.createContext({ texts: units.map((u) => u.text), source, flags, maxHits: opts.maxHits ?? 1000 });
  try {
    const hits = vm.runInContext(
      `(() => { const re = new RegExp(source, flags); const out = [];
        for (let i = 0; i < texts.length && out.length < maxHits; i++) {
          const m = re.exec(texts[i]); re.lastIndex = 0;
          if (m) out.push({ unit: i, match: m[0], groups: m.slice(1).map((g) => g === undefined ? '' : g) });
        }
        return JSON.stringify(out); })()`,
      ctx,
      { timeout: opts.timeoutMs ?? 2000 },
    ) as string;
    return JSON.parse(hits) as PatternHit[];
  } catch (err) {
    // The timeout error may come from another realm: recognise it by code, not by class.
    const e = err as { code?: string; message?: string };
    if (e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT' || /timed out/i.test(e.message ?? ''))
      throw new PatternError('timeout', e.message ?? 'timed out');
    throw err;
  }
}
