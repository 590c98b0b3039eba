// Anthropic Messages wire format: a `message` object, or the SSE sequence
// message_start, (content_block_start, ping, content_block_delta..., content_block_stop)*,
// message_delta (stop_reason, usage), message_stop.
import type { FinalReply } from '../types.js';
import { chunkText, sseFrame, type WireContext } from './chunk-text.js';

function stopReason(r: FinalReply): string {
  return r.stopReason === 'tool_calls' ? 'tool_use' : r.stopReason === 'length' ? 'max_tokens' : 'end_turn';
}

function parsedInput(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    // A deliberately malformed argument string stays visible to the client as-is.
    return args;
  }
}

function toolId(id: string): string {
  return `toolu_${id.slice(5)}`;
}

/** Anthropic's input_tokens excludes cache reads and writes; the whole prompt is input + cache_read + cache_creation. */
function inputUsage(r: FinalReply) {
  const { input, cachedInput, cacheWrite = 0 } = r.usage;
  return {
    input_tokens: Math.max(0, input - cachedInput - cacheWrite),
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cachedInput,
  };
}

function usage(r: FinalReply, output: number) {
  return {
    ...inputUsage(r),
    cache_creation: {
      ephemeral_5m_input_tokens: (r.usage.cacheWrite ?? 0) - (r.usage.cacheWrite1h ?? 0),
      ephemeral_1h_input_tokens: r.usage.cacheWrite1h ?? 0,
    },
    output_tokens: output,
    service_tier: 'standard',
  };
}

export function anthropicJson(r: FinalReply, ctx: WireContext): unknown {
  const content: unknown[] = [];
  if (r.text.length > 0) content.push({ type: 'text', text: r.text });
  for (const c of r.toolCalls)
    content.push({ type: 'tool_use', id: toolId(c.id), name: c.name, input: parsedInput(c.arguments) });
  return {
    id: ctx.id,
    type: 'message',
    role: 'assistant',
    model: ctx.model,
    content,
    stop_reason: stopReason(r),
    stop_sequence: null,
    usage: usage(r, r.usage.output),
  };
}

export function anthropicStream(r: FinalReply, ctx: WireContext): string[] {
  const frames: string[] = [];
  const emit = (type: string, payload: Record<string, unknown>) => frames.push(sseFrame({ type, ...payload }, type));
  emit('message_start', {
    message: {
      id: ctx.id,
      type: 'message',
      role: 'assistant',
      model: ctx.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: usage(r, 1),
    },
  });
  let index = 0;
  if (r.text.length > 0) {
    emit('content_block_start', { index, content_block: { type: 'text', text: '' } });
    emit('ping', {});
    for (const text of chunkText(r.text, ctx.chunkChars))
      emit('content_block_delta', { index, delta: { type: 'text_delta', text } });
    emit('content_block_stop', { index });
    index += 1;
  }
  for (const c of r.toolCalls) {
    emit('content_block_start', {
      index,
      content_block: { type: 'tool_use', id: toolId(c.id), name: c.name, input: {} },
    });
    for (const partial_json of chunkText(c.arguments, ctx.chunkChars))
      emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
    emit('content_block_stop', { index });
    index += 1;
  }
  emit('message_delta', {
    delta: { stop_reason: stopReason(r), stop_sequence: null },
    // Cumulative, as the API sends it: the input counts again, with the final output count.
    usage: { ...inputUsage(r), output_tokens: r.usage.output },
  });
  emit('message_stop', {});
  return frames;
}

export function anthropicError(status: number, message: string): unknown {
  const type =
    status === 429
      ? 'rate_limit_error'
      : status === 529
        ? 'overloaded_error'
        : status >= 500
          ? 'api_error'
          : status === 401
            ? 'authentication_error'
            : status === 404
              ? 'not_found_error'
              : 'invalid_request_error';
  return { type: 'error', error: { type, message } };
}
