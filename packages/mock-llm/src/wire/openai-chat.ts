// OpenAI Chat Completions wire format: a chat.completion object, or chat.completion.chunk
// SSE frames ending in `data: [DONE]` (a usage chunk with empty choices first when
// stream_options.include_usage is set).
import type { FinalReply } from '../types.js';
import { chunkText, sseFrame, type WireContext } from './chunk-text.js';

function finishReason(r: FinalReply): string {
  return r.stopReason === 'tool_calls' ? 'tool_calls' : r.stopReason === 'length' ? 'length' : 'stop';
}

function usage(r: FinalReply) {
  return {
    prompt_tokens: r.usage.input,
    completion_tokens: r.usage.output,
    total_tokens: r.usage.input + r.usage.output,
    prompt_tokens_details: { cached_tokens: r.usage.cachedInput, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

export function chatJson(r: FinalReply, ctx: WireContext): unknown {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: r.text.length > 0 || r.toolCalls.length === 0 ? r.text : null,
    refusal: null,
    annotations: [],
  };
  if (r.toolCalls.length > 0) {
    message.tool_calls = r.toolCalls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));
  }
  return {
    id: ctx.id,
    object: 'chat.completion',
    created: ctx.created,
    model: ctx.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(r) }],
    usage: usage(r),
    service_tier: 'default',
    system_fingerprint: 'fp_mock_llm',
  };
}

export function chatStream(r: FinalReply, ctx: WireContext): string[] {
  const base = {
    id: ctx.id,
    object: 'chat.completion.chunk',
    created: ctx.created,
    model: ctx.model,
    service_tier: 'default',
    system_fingerprint: 'fp_mock_llm',
  };
  const frame = (delta: Record<string, unknown>, finish: string | null = null) =>
    sseFrame({
      ...base,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(ctx.includeUsage ? { usage: null } : {}),
    });
  const frames = [frame({ role: 'assistant', content: '', refusal: null })];
  for (const piece of chunkText(r.text, ctx.chunkChars)) frames.push(frame({ content: piece }));
  r.toolCalls.forEach((c, index) => {
    frames.push(
      frame({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }),
    );
    for (const piece of chunkText(c.arguments, ctx.chunkChars))
      frames.push(frame({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  frames.push(frame({}, finishReason(r)));
  if (ctx.includeUsage) frames.push(sseFrame({ ...base, choices: [], usage: usage(r) }));
  frames.push(sseFrame('[DONE]'));
  return frames;
}

export function chatError(status: number, message: string): unknown {
  const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return { error: { message, type, param: null, code: status === 429 ? 'rate_limit_exceeded' : null } };
}
