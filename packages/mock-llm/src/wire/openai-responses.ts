// OpenAI Responses API wire format: a `response` object, or typed SSE events
// (response.created ... response.completed) each carrying a sequence_number.
import type { FinalReply } from '../types.js';
import { chunkText, sseFrame, type WireContext } from './chunk-text.js';

type Item = Record<string, unknown>;

function usage(r: FinalReply) {
  return {
    input_tokens: r.usage.input,
    input_tokens_details: { cached_tokens: r.usage.cachedInput },
    output_tokens: r.usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: r.usage.input + r.usage.output,
  };
}

function messageItem(r: FinalReply, ctx: WireContext, status: string, text: string): Item {
  return {
    id: `msg_${ctx.id.slice(5)}`,
    type: 'message',
    status,
    role: 'assistant',
    content: status === 'in_progress' ? [] : [{ type: 'output_text', text, annotations: [], logprobs: [] }],
  };
}

function callItem(c: FinalReply['toolCalls'][number], status: string, args: string): Item {
  return { id: `fc_${c.id.slice(5)}`, type: 'function_call', status, arguments: args, call_id: c.id, name: c.name };
}

function outputItems(r: FinalReply, ctx: WireContext): Item[] {
  const items: Item[] = [];
  if (r.text.length > 0) items.push(messageItem(r, ctx, 'completed', r.text));
  for (const c of r.toolCalls) items.push(callItem(c, 'completed', c.arguments));
  return items;
}

function responseObject(
  r: FinalReply,
  ctx: WireContext,
  status: 'in_progress' | 'completed' | 'incomplete',
  body: Record<string, unknown>,
): Item {
  const done = status !== 'in_progress';
  return {
    id: ctx.id,
    object: 'response',
    created_at: ctx.created,
    status,
    background: false,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    max_tool_calls: null,
    model: ctx.model,
    output: done ? outputItems(r, ctx) : [],
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    prompt_cache_key: null,
    reasoning: { effort: null, summary: null },
    safety_identifier: null,
    service_tier: 'default',
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: body.tool_choice ?? 'auto',
    tools: Array.isArray(body.tools) ? body.tools : [],
    top_logprobs: 0,
    top_p: body.top_p ?? 1,
    truncation: 'disabled',
    usage: done ? usage(r) : null,
    user: null,
    metadata: {},
  };
}

export function responsesJson(r: FinalReply, ctx: WireContext, body: Record<string, unknown>): unknown {
  return responseObject(r, ctx, r.stopReason === 'length' ? 'incomplete' : 'completed', body);
}

export function responsesStream(r: FinalReply, ctx: WireContext, body: Record<string, unknown>): string[] {
  let seq = 0;
  const frames: string[] = [];
  const emit = (type: string, payload: Record<string, unknown>) => {
    frames.push(sseFrame({ type, sequence_number: seq, ...payload }, type));
    seq += 1;
  };
  emit('response.created', { response: responseObject(r, ctx, 'in_progress', body) });
  emit('response.in_progress', { response: responseObject(r, ctx, 'in_progress', body) });
  let outputIndex = 0;
  if (r.text.length > 0) {
    const item = messageItem(r, ctx, 'in_progress', '');
    const itemId = item.id as string;
    emit('response.output_item.added', { output_index: outputIndex, item });
    emit('response.content_part.added', {
      item_id: itemId,
      output_index: outputIndex,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
    });
    for (const delta of chunkText(r.text, ctx.chunkChars)) {
      emit('response.output_text.delta', {
        item_id: itemId,
        output_index: outputIndex,
        content_index: 0,
        delta,
        logprobs: [],
        obfuscation: '',
      });
    }
    emit('response.output_text.done', {
      item_id: itemId,
      output_index: outputIndex,
      content_index: 0,
      text: r.text,
      logprobs: [],
    });
    emit('response.content_part.done', {
      item_id: itemId,
      output_index: outputIndex,
      content_index: 0,
      part: { type: 'output_text', text: r.text, annotations: [], logprobs: [] },
    });
    emit('response.output_item.done', { output_index: outputIndex, item: messageItem(r, ctx, 'completed', r.text) });
    outputIndex += 1;
  }
  for (const c of r.toolCalls) {
    const item = callItem(c, 'in_progress', '');
    const itemId = item.id as string;
    emit('response.output_item.added', { output_index: outputIndex, item });
    for (const delta of chunkText(c.arguments, ctx.chunkChars)) {
      emit('response.function_call_arguments.delta', {
        item_id: itemId,
        output_index: outputIndex,
        delta,
        obfuscation: '',
      });
    }
    emit('response.function_call_arguments.done', {
      item_id: itemId,
      output_index: outputIndex,
      arguments: c.arguments,
    });
    emit('response.output_item.done', { output_index: outputIndex, item: callItem(c, 'completed', c.arguments) });
    outputIndex += 1;
  }
  const final = responsesJson(r, ctx, body) as Item;
  emit(final.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final });
  return frames;
}

export function responsesError(status: number, message: string): unknown {
  const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return { error: { message, type, param: null, code: status === 429 ? 'rate_limit_exceeded' : null } };
}
