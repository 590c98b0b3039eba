// Token usage read from a model response body as the provider sent it (JSON, SSE, or
// Gemini's streamed JSON array). Input counts include cached input (counted once).
import type { ModelApi } from './harness-adapter.js';

export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
}

type Json = Record<string, unknown>;

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const obj = (v: unknown): Json | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;

/** Every JSON object in a body: one document, an array of them, or SSE `data:` lines. */
function jsonObjects(body: string): Json[] {
  const text = body.trim();
  if (!text) return [];
  try {
    const whole: unknown = JSON.parse(text);
    if (Array.isArray(whole)) return whole.map(obj).filter((o): o is Json => !!o);
    const o = obj(whole);
    return o ? [o] : [];
  } catch {
    // SSE (or a partial body): parse line by line.
  }
  const out: Json[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.startsWith('data:') ? raw.slice(5).trim() : raw.trim().replace(/^[[,]/, '').replace(/]$/, '');
    if (!line.startsWith('{')) continue;
    try {
      const o = obj(JSON.parse(line));
      if (o) out.push(o);
    } catch {
      // not a whole JSON line
    }
  }
  return out;
}

function anthropicUsage(u: Json): TokenCounts {
  const cached = num(u.cache_read_input_tokens);
  return {
    inputTokens: num(u.input_tokens) + cached + num(u.cache_creation_input_tokens),
    outputTokens: num(u.output_tokens),
    cachedInputTokens: cached,
  };
}

export function extractUsage(api: ModelApi, body: string): TokenCounts {
  const events = jsonObjects(body);
  const zero = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
  if (api === 'anthropic') {
    let input = zero;
    let output = 0;
    for (const e of events) {
      const start = obj(obj(e.message)?.usage);
      if (e.type === 'message_start' && start) {
        input = anthropicUsage(start);
        output = num(start.output_tokens);
      } else if (e.type === 'message_delta' && obj(e.usage)) output = num(obj(e.usage)?.output_tokens) || output;
      else if (e.type === 'message' && obj(e.usage)) return anthropicUsage(obj(e.usage) ?? {});
    }
    return { ...input, outputTokens: output };
  }
  if (api === 'gemini') {
    // Streamed chunks repeat cumulative usage: the last one counts.
    const last = [...events]
      .reverse()
      .map((e) => obj(e.usageMetadata) ?? obj(obj(e.response)?.usageMetadata))
      .find(Boolean);
    if (!last) return zero;
    return {
      inputTokens: num(last.promptTokenCount),
      outputTokens: num(last.candidatesTokenCount) + num(last.thoughtsTokenCount),
      cachedInputTokens: num(last.cachedContentTokenCount),
    };
  }
  if (api === 'openai-responses') {
    for (const e of [...events].reverse()) {
      const u = obj(obj(e.response)?.usage) ?? (e.object === 'response' ? obj(e.usage) : undefined);
      if (u)
        return {
          inputTokens: num(u.input_tokens),
          outputTokens: num(u.output_tokens),
          cachedInputTokens: num(obj(u.input_tokens_details)?.cached_tokens),
        };
    }
    return zero;
  }
  for (const e of [...events].reverse()) {
    const u = obj(e.usage);
    if (u)
      return {
        inputTokens: num(u.prompt_tokens),
        outputTokens: num(u.completion_tokens),
        cachedInputTokens: num(obj(u.prompt_tokens_details)?.cached_tokens),
      };
  }
  return zero;
}

/**
 * The model ids the provider named in a response body, once each in order of appearance: the top-level
 * `model` (OpenAI chat and its chunks, Anthropic's message), a stream's `message_start.message.model`
 * (Anthropic) or `response.model` (OpenAI responses events), Gemini's `modelVersion`.
 */
export function extractModels(api: ModelApi, body: string): string[] {
  const found = new Set<string>();
  for (const e of jsonObjects(body)) {
    let model: unknown;
    if (api === 'gemini') model = e.modelVersion ?? obj(e.response)?.modelVersion;
    else if (api === 'anthropic') model = e.type === 'message_start' ? obj(e.message)?.model : e.model;
    else if (api === 'openai-responses') model = obj(e.response)?.model ?? (e.object === 'response' ? e.model : null);
    else model = e.model;
    if (typeof model === 'string' && model.length > 0) found.add(model);
  }
  return [...found];
}

/**
 * The provider's response ids in a response body, once each in order of appearance (a stream's chunks repeat
 * theirs): OpenAI chat's top-level `id` (`chatcmpl-…`, in every chunk), the Responses API's `id` (`resp_…`) or a
 * stream event's `response.id`, Anthropic's message `id` (`msg_…`) or a stream's `message_start.message.id`,
 * Gemini's `responseId`. Item, tool-call and content-block ids are not response ids and are left out.
 */
export function extractResponseIds(api: ModelApi, body: string): string[] {
  const found = new Set<string>();
  for (const e of jsonObjects(body)) {
    let id: unknown;
    if (api === 'gemini') id = e.responseId ?? obj(e.response)?.responseId;
    else if (api === 'anthropic')
      id = e.type === 'message_start' ? obj(e.message)?.id : e.type === 'message' ? e.id : null;
    else if (api === 'openai-responses') id = obj(e.response)?.id ?? (e.object === 'response' ? e.id : null);
    else id = e.id;
    if (typeof id === 'string' && id.length > 0) found.add(id);
  }
  return [...found];
}
