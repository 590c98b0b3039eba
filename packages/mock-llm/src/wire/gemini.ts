// Gemini generateContent wire format: a GenerateContentResponse, or for
// streamGenerateContent a series of them (SSE `data:` frames with alt=sse, else a JSON array).
import type { FinalReply } from '../types.js';
import { chunkText, type WireContext } from './chunk-text.js';

function finishReason(r: FinalReply): string {
  return r.stopReason === 'length' ? 'MAX_TOKENS' : 'STOP';
}

function parsedArgs(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

function usageMetadata(r: FinalReply) {
  return {
    promptTokenCount: r.usage.input,
    candidatesTokenCount: r.usage.output,
    totalTokenCount: r.usage.input + r.usage.output,
    ...(r.usage.cachedInput > 0 ? { cachedContentTokenCount: r.usage.cachedInput } : {}),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: r.usage.input }],
  };
}

function chunk(parts: unknown[], ctx: WireContext, final: FinalReply | null): Record<string, unknown> {
  const candidate: Record<string, unknown> = { content: { parts, role: 'model' }, index: 0 };
  if (final) candidate.finishReason = finishReason(final);
  return {
    candidates: [candidate],
    ...(final ? { usageMetadata: usageMetadata(final) } : {}),
    modelVersion: ctx.model,
    responseId: ctx.id,
  };
}

function callParts(r: FinalReply): unknown[] {
  return r.toolCalls.map((c) => ({ functionCall: { name: c.name, args: parsedArgs(c.arguments) } }));
}

export function geminiJson(r: FinalReply, ctx: WireContext): unknown {
  const parts: unknown[] = [];
  if (r.text.length > 0) parts.push({ text: r.text });
  parts.push(...callParts(r));
  return chunk(parts, ctx, r);
}

/** Stream chunks as objects; the server frames them as SSE or a JSON array. */
export function geminiStreamChunks(r: FinalReply, ctx: WireContext): unknown[] {
  const pieces = chunkText(r.text, ctx.chunkChars);
  const out: unknown[] = pieces.map((text) => chunk([{ text }], ctx, null));
  const tail = callParts(r);
  // The last chunk carries tool calls (if any), the finish reason and usage.
  if (tail.length > 0 || out.length === 0) out.push(chunk(tail.length > 0 ? tail : [{ text: '' }], ctx, r));
  else {
    const lastText = pieces.at(-1) ?? '';
    out[out.length - 1] = chunk([{ text: lastText }], ctx, r);
  }
  return out;
}

export function geminiError(status: number, message: string): unknown {
  const statusName =
    status === 429
      ? 'RESOURCE_EXHAUSTED'
      : status === 503
        ? 'UNAVAILABLE'
        : status >= 500
          ? 'INTERNAL'
          : status === 404
            ? 'NOT_FOUND'
            : status === 401
              ? 'UNAUTHENTICATED'
              : 'INVALID_ARGUMENT';
  return { error: { code: status, message, status: statusName } };
}
