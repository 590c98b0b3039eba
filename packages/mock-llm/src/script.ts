// Script state: load and validate a script, pick the rule for a request, turn its
// reply into a final reply with exact usage, and draw seeded random faults.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { fileScriptSchema, faultSpecSchema, randomFaultsSchema, replySpecSchema } from './script-schema.js';
import type { FaultKind } from './script-schema.js';
import { estimateTokens } from './estimate-tokens.js';
import { messages } from './messages.js';
import type { CacheAccounting } from './prompt-cache.js';
import type { FinalReply, MockReply, MockRequest, MockRule, MockScript, ReplySource, ResolvedFault } from './types.js';

export { estimateTokens };

/** Load a YAML or JSON script file (JSON is valid YAML). */
export async function loadScriptFile(path: string): Promise<MockScript> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(messages.scriptUnreadable(path, (err as Error).message));
  }
  return parseScript(parseYaml(text), path);
}

/** Validate a script object (file form or TS form). Reply functions and RegExps pass through. */
export function parseScript(raw: unknown, where = '(object)'): MockScript {
  const result = fileScriptSchema.safeParse(raw);
  if (!result.success)
    throw new Error(
      messages.scriptInvalid(where, result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')),
    );
  const s = result.data;
  return {
    rules: s.rules.map((r) => ({ ...r, reply: r.reply as ReplySource | undefined })),
    default: s.default as ReplySource | undefined,
    faults: s.faults,
    chunkChars: s.chunkChars,
    ...(s.batch ? { batch: s.batch } : {}),
  };
}

function toRegExp(p: string | RegExp): RegExp {
  return typeof p === 'string' ? new RegExp(p, 's') : p;
}

function inRange(value: number, m: number | { min?: number; max?: number }): boolean {
  if (typeof m === 'number') return value === m;
  return (m.min === undefined || value >= m.min) && (m.max === undefined || value <= m.max);
}

/** Named groups captured, or null when the rule does not match. */
function matchRule(rule: MockRule, req: MockRequest): Record<string, string> | null {
  const m = rule.match ?? {};
  if (m.api !== undefined && !(Array.isArray(m.api) ? m.api : [m.api]).includes(req.api)) return null;
  if (m.tool !== undefined && !req.tools.includes(m.tool)) return null;
  if (m.turn !== undefined && !inRange(req.turn, m.turn)) return null;
  if (m.call !== undefined && !inRange(req.call, m.call)) return null;
  if (m.stream !== undefined && m.stream !== req.stream) return null;
  const groups: Record<string, string> = {};
  const fields = ['model', 'system', 'user', 'toolResult', 'any'] as const;
  for (const f of fields) {
    const p = m[f];
    if (p === undefined) continue;
    const hay = f === 'any' ? req.all : req[f];
    const found = toRegExp(p).exec(hay);
    if (!found) return null;
    Object.assign(groups, found.groups ?? {});
  }
  return groups;
}

function fill(s: string, vars: Record<string, string>): string {
  return s.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (whole, name: string) => vars[name] ?? whole);
}

/** Expand a file-form template: strings get {{group}}s, `{ $each, in, flags, item }` becomes one item per regex match. */
function renderTemplate(t: unknown, req: MockRequest, vars: Record<string, string>): unknown {
  if (typeof t === 'string') return fill(t, vars);
  if (Array.isArray(t)) return t.map((x) => renderTemplate(x, req, vars));
  if (typeof t !== 'object' || t === null) return t;
  const o = t as Record<string, unknown>;
  if (typeof o.$each === 'string') {
    const field = (o.in ?? 'all') as 'all' | 'user' | 'toolResult' | 'system';
    const hay = field === 'all' ? req.all : req[field];
    // Default flags `m` (^ and $ match at lines); `flags` overrides, `g` is always added.
    const flags = typeof o.flags === 'string' ? o.flags : 'm';
    const re = new RegExp(o.$each, flags.includes('g') ? flags : `${flags}g`);
    return [...hay.matchAll(re)].map((m) => renderTemplate(o.item, req, { ...vars, ...(m.groups ?? {}), '0': m[0] }));
  }
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, renderTemplate(v, req, vars)]));
}

/** Tool-call ids derive from the conversation and call number, so identical runs send identical bodies. */
function callId(prefix: string, req: MockRequest, index: number): string {
  return `${prefix}${createHash('sha256').update(`${req.conversationKey}:${req.call}:${index}`).digest('hex').slice(0, 24)}`;
}

/**
 * The reply for a request. Usage: the script's when it fixes it; else the prompt cache's accounting
 * of the request (Anthropic, OpenAI); else (Gemini) the estimate of all request text, nothing cached.
 */
export async function resolveReply(
  source: ReplySource,
  req: MockRequest,
  idPrefix: string,
  cache: CacheAccounting | null = null,
): Promise<FinalReply> {
  const vars = { ...req.groups, turn: String(req.turn), call: String(req.call), model: req.model };
  const raw: MockReply =
    typeof source === 'function' ? await source(req) : (renderTemplate(source, req, vars) as MockReply);
  const spec = replySpecSchema.parse(raw);
  const toolCalls = spec.toolCalls.map((c, i) => ({
    id: callId(idPrefix, req, i),
    name: c.name,
    arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}),
  }));
  const text = spec.text ?? '';
  const output = estimateTokens(text + toolCalls.map((c) => c.name + c.arguments).join(''));
  const usage: FinalReply['usage'] = spec.usage
    ? { ...spec.usage, cacheWrite1h: 0 }
    : cache
      ? { input: cache.prompt, output, cachedInput: cache.read, cacheWrite: cache.write, cacheWrite1h: cache.write1h }
      : { input: estimateTokens(req.all), output, cachedInput: 0, cacheWrite: 0, cacheWrite1h: 0 };
  return {
    text,
    toolCalls,
    usage,
    stopReason: spec.stopReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    ...(spec.model !== undefined ? { model: spec.model } : {}),
  };
}

/** mulberry32: small, fast, seedable. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class ScriptState {
  private readonly used = new Map<number, number>();
  private readonly calls = new Map<string, number>();
  private readonly bodies = new Map<string, number>();

  constructor(public script: MockScript) {}

  nextCall(conversationKey: string): number {
    const n = (this.calls.get(conversationKey) ?? 0) + 1;
    this.calls.set(conversationKey, n);
    return n;
  }

  /** First matching rule still within its `times`; consumes one use. */
  pick(req: MockRequest): { rule: MockRule | null; index: number; groups: Record<string, string> } {
    for (const [index, rule] of this.script.rules.entries()) {
      if (rule.times !== undefined && (this.used.get(index) ?? 0) >= rule.times) continue;
      const groups = matchRule(rule, req);
      if (groups === null) continue;
      this.used.set(index, (this.used.get(index) ?? 0) + 1);
      return { rule, index, groups };
    }
    return { rule: null, index: -1, groups: {} };
  }

  ruleFault(rule: MockRule | null): ResolvedFault | null {
    if (!rule?.fault) return null;
    const f = faultSpecSchema.parse(rule.fault);
    return { ...f, random: false };
  }

  /**
   * Random fault for this request. The draw depends on the seed, the request body and how many
   * identical bodies came before, so it does not depend on the arrival order of concurrent requests.
   */
  randomFault(rawBody: string): ResolvedFault | null {
    if (!this.script.faults) return null;
    const f = randomFaultsSchema.parse(this.script.faults);
    const bodyHash = createHash('sha256').update(rawBody).digest('hex');
    const seen = this.bodies.get(bodyHash) ?? 0;
    this.bodies.set(bodyHash, seen + 1);
    const seed = createHash('sha256').update(`${f.seed}:${bodyHash}:${seen}`).digest().readUInt32LE(0);
    const next = rng(seed);
    if (next() >= f.rate) return null;
    const weights: [FaultKind, number][] = Array.isArray(f.kinds)
      ? f.kinds.map((k) => [k, 1])
      : (Object.entries(f.kinds) as [FaultKind, number][]);
    const total = weights.reduce((s, [, w]) => s + w, 0);
    let x = next() * total;
    let kind: FaultKind = weights[0]?.[0] ?? '500';
    for (const [k, w] of weights) {
      if (x < w) {
        kind = k;
        break;
      }
      x -= w;
    }
    return { kind, retryAfter: f.retryAfter, ms: f.slowMs, afterChunks: f.afterChunks, random: true };
  }
}
