// A request's prompt as the ordered elements a provider caches it in, each with its
// canonical text: `<kind>: <text>\n`. The prompt cache counts a prefix's tokens as the
// estimate (script.ts) of its canonical text, and keys its entries by that text, so the
// same request gives the same prefixes and a change anywhere invalidates what follows.
import type { ApiKind } from './types.js';

type Json = Record<string, unknown>;

/** One cacheable unit: a tool definition, a system block, a message content block. */
export interface PromptElement {
  /** Canonical text, `<kind>: <text>\n`. */
  text: string;
  /** Anthropic: the element carries `cache_control` (a breakpoint), with its TTL. */
  breakpoint?: '5m' | '1h';
}

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON without `cache_control` keys: marking a block must not change the prefix it ends. */
function stableJson(v: unknown): string {
  return JSON.stringify(v, (key, value: unknown) => (key === 'cache_control' ? undefined : value)) ?? '';
}

function element(kind: string, text: string, breakpoint?: '5m' | '1h'): PromptElement {
  return breakpoint ? { text: `${kind}: ${text}\n`, breakpoint } : { text: `${kind}: ${text}\n` };
}

/** A content part's text: its `text`, `[image]` for images, else its JSON. */
function partText(p: unknown): string {
  if (typeof p === 'string') return p;
  if (!isObj(p)) return '';
  if (typeof p.text === 'string') return p.text;
  if (p.type === 'image_url' || p.type === 'image' || p.type === 'input_image') return '[image]';
  return stableJson(p);
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(partText).join('\n');
  return content === undefined || content === null ? '' : stableJson(content);
}

function ttlOf(cc: unknown): '5m' | '1h' | undefined {
  if (!isObj(cc)) return undefined;
  return cc.ttl === '1h' ? '1h' : '5m';
}

/** Anthropic: cache order is tools → system → messages; a breakpoint on a nested tool_result block ends the result. */
function anthropicElements(body: Json): PromptElement[] {
  const out: PromptElement[] = [];
  for (const t of Array.isArray(body.tools) ? body.tools : [])
    if (isObj(t)) out.push(element('tool', stableJson(t), ttlOf(t.cache_control)));
  if (typeof body.system === 'string') out.push(element('system', body.system));
  else if (Array.isArray(body.system))
    for (const b of body.system) if (isObj(b)) out.push(element('system', partText(b), ttlOf(b.cache_control)));
  for (const m of Array.isArray(body.messages) ? body.messages : []) {
    if (!isObj(m)) continue;
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    if (typeof m.content === 'string') {
      out.push(element(role, m.content));
      continue;
    }
    for (const b of Array.isArray(m.content) ? m.content : []) {
      if (!isObj(b)) continue;
      const ttl = ttlOf(b.cache_control);
      if (b.type === 'tool_use') out.push(element('tool_call', `${String(b.name)} ${stableJson(b.input ?? {})}`, ttl));
      else if (b.type === 'tool_result') {
        const nested = Array.isArray(b.content) ? b.content.filter(isObj).map((c) => ttlOf(c.cache_control)) : [];
        const inner = nested.includes('1h') ? '1h' : nested.includes('5m') ? '5m' : undefined;
        out.push(element('tool_result', contentText(b.content), ttl ?? inner));
      } else if (b.type === 'text' || b.type === 'image') out.push(element(role, partText(b), ttl));
      else out.push(element(String(b.type), stableJson(b), ttl));
    }
  }
  // Top-level cache_control ("automatic caching") marks the last block.
  const last = out.at(-1);
  const auto = ttlOf(body.cache_control);
  if (last && auto && !last.breakpoint) last.breakpoint = auto;
  return out;
}

/**
 * How many blocks carry `cache_control` (tools, system, message blocks, tool_result contents), plus
 * one for a top-level `cache_control` when the last block has none of its own (approximate).
 */
export function countCacheBreakpoints(body: Json): number {
  let n = 0;
  const visit = (blocks: unknown) => {
    if (!Array.isArray(blocks)) return;
    for (const b of blocks) {
      if (!isObj(b)) continue;
      if (isObj(b.cache_control)) n += 1;
      if (b.type === 'tool_result') visit(b.content);
    }
  };
  visit(body.tools);
  visit(body.system);
  for (const m of Array.isArray(body.messages) ? body.messages : []) if (isObj(m)) visit(m.content);
  const lastMessage: unknown = Array.isArray(body.messages) ? body.messages.at(-1) : undefined;
  const lastBlock: unknown =
    isObj(lastMessage) && Array.isArray(lastMessage.content) ? lastMessage.content.at(-1) : undefined;
  if (isObj(body.cache_control) && !(isObj(lastBlock) && isObj(lastBlock.cache_control))) n += 1;
  return n;
}

/** OpenAI Chat: tools, then every message in order (assistant tool calls one element each). */
function chatElements(body: Json): PromptElement[] {
  const out: PromptElement[] = [];
  for (const t of Array.isArray(body.tools) ? body.tools : []) out.push(element('tool', stableJson(t)));
  for (const m of Array.isArray(body.messages) ? body.messages : []) {
    if (!isObj(m)) continue;
    const role = typeof m.role === 'string' ? m.role : 'user';
    const kind = role === 'developer' ? 'system' : role === 'tool' || role === 'function' ? 'tool_result' : role;
    if (kind !== 'assistant' || (m.content !== null && m.content !== undefined))
      out.push(element(kind, contentText(m.content)));
    for (const c of Array.isArray(m.tool_calls) ? m.tool_calls : []) {
      const f = isObj(c) && isObj(c.function) ? c.function : {};
      out.push(element('tool_call', `${String(f.name)} ${String(f.arguments ?? '')}`));
    }
  }
  return out;
}

/** OpenAI Responses: tools, instructions, then every input item in order. */
function responsesElements(body: Json): PromptElement[] {
  const out: PromptElement[] = [];
  for (const t of Array.isArray(body.tools) ? body.tools : []) out.push(element('tool', stableJson(t)));
  if (typeof body.instructions === 'string') out.push(element('system', body.instructions));
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input;
  for (const item of Array.isArray(input) ? input : []) {
    if (!isObj(item)) continue;
    if (item.type === 'function_call')
      out.push(element('tool_call', `${String(item.name)} ${String(item.arguments ?? '')}`));
    else if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output')
      out.push(element('tool_result', contentText(item.output)));
    else if (typeof item.role === 'string')
      out.push(element(item.role === 'developer' ? 'system' : item.role, contentText(item.content)));
    else out.push(element(String(item.type), stableJson(item)));
  }
  return out;
}

/** The prompt's elements in cache order; Gemini's are not modelled (its caching is explicit, not simulated). */
export function promptElements(api: ApiKind, body: Json): PromptElement[] {
  if (api === 'anthropic') return anthropicElements(body);
  if (api === 'openai-chat') return chatElements(body);
  if (api === 'openai-responses') return responsesElements(body);
  return [];
}
