// One reply (or error) in the wire format of the API it was asked through.
import type { ApiKind, FinalReply } from '../types.js';
import { anthropicError, anthropicJson, anthropicStream } from './anthropic.js';
import { sseFrame, type WireContext } from './chunk-text.js';
import { geminiError, geminiJson, geminiStreamChunks } from './gemini.js';
import { chatError, chatJson, chatStream } from './openai-chat.js';
import { responsesError, responsesJson, responsesStream } from './openai-responses.js';

export function renderError(api: ApiKind, status: number, message: string): unknown {
  if (api === 'anthropic') return anthropicError(status, message);
  if (api === 'gemini') return geminiError(status, message);
  if (api === 'openai-responses') return responsesError(status, message);
  return chatError(status, message);
}

/** Prefix of the reply id each API's clients expect. */
export function replyIdPrefix(api: ApiKind): string {
  return api === 'anthropic' ? 'msg_' : api === 'openai-responses' ? 'resp_' : api === 'gemini' ? '' : 'chatcmpl-';
}

export function renderReplyJson(
  api: ApiKind,
  reply: FinalReply,
  ctx: WireContext,
  body: Record<string, unknown>,
): unknown {
  if (api === 'anthropic') return anthropicJson(reply, ctx);
  if (api === 'gemini') return geminiJson(reply, ctx);
  if (api === 'openai-responses') return responsesJson(reply, ctx, body);
  return chatJson(reply, ctx);
}

/** The frames of a streamed reply, each written on its own. */
export function renderReplyStream(
  api: ApiKind,
  reply: FinalReply,
  ctx: WireContext,
  body: Record<string, unknown>,
  sse: boolean,
): string[] {
  if (api === 'anthropic') return anthropicStream(reply, ctx);
  if (api === 'openai-responses') return responsesStream(reply, ctx, body);
  if (api === 'openai-chat') return chatStream(reply, ctx);
  const chunks = geminiStreamChunks(reply, ctx);
  if (sse) return chunks.map((c) => sseFrame(c));
  // Without alt=sse Gemini streams one JSON array.
  return chunks.map((c, i) => `${i === 0 ? '[' : ',\r\n'}${JSON.stringify(c)}${i === chunks.length - 1 ? ']' : ''}`);
}
