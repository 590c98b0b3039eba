// The provider-neutral model interface the judge session talks to.
import type { TokenUsage } from './types.js';

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ToolCall {
  id: string;
  name: string;
  /** Raw JSON text as the model produced it (may be invalid). */
  arguments: string;
}

export interface ToolResult {
  callId: string;
  name: string;
  text: string;
  /** PNG bytes to show the model (page images). */
  image?: Uint8Array;
}

export type ChatTurn =
  /** `sharedChars`: the text's first characters are the same in every session of one submission (cacheable). */
  | { role: 'user'; text: string; sharedChars?: number }
  | { role: 'assistant'; text: string; toolCalls: ToolCall[] }
  | { role: 'tool-results'; results: ToolResult[] };

export interface ModelRequest {
  system: string;
  turns: ChatTurn[];
  tools: ToolSpec[];
  signal?: AbortSignal;
}

export interface ModelReply {
  text: string;
  toolCalls: ToolCall[];
  usage: TokenUsage;
  stopReason: string;
  /** The model id the provider named in its response (it may differ from the one asked for); null if none. */
  model: string | null;
}

export interface JudgeModel {
  provider: 'openai' | 'anthropic';
  model: string;
  /** Null when the provider does not take one (then it is not sent). */
  temperature: number | null;
  seed: number | null;
  /** Its replies come from a provider batch (billed at the batch discount). */
  batch?: true;
  complete(request: ModelRequest): Promise<ModelReply>;
}

/** A model request that failed after the SDK's own transport retries. */
export class ModelCallError extends Error {
  constructor(
    message: string,
    readonly kind: 'timeout' | 'cancelled' | 'error',
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'ModelCallError';
  }
}

/** Map an SDK error (OpenAI or Anthropic share class names) to a ModelCallError without echoing headers. */
export function toModelCallError(err: unknown, signal?: AbortSignal): ModelCallError {
  const e = err as { name?: string; constructor?: { name?: string }; status?: number; message?: string };
  const name = e?.constructor?.name ?? e?.name ?? 'Error';
  if (signal?.aborted || name === 'APIUserAbortError' || e?.name === 'AbortError')
    return new ModelCallError('cancelled', 'cancelled');
  if (name === 'APIConnectionTimeoutError') return new ModelCallError('request timed out', 'timeout');
  const status = typeof e?.status === 'number' ? e.status : null;
  const msg = (e?.message ?? String(err)).slice(0, 300);
  return new ModelCallError(`${name}${status ? ` ${status}` : ''}: ${msg}`, 'error', status);
}

/**
 * A turn whose reply is not known yet (batch judging: it goes into the next batch). Not a failure:
 * the session stops where it is and is replayed, with the reply, in a later round.
 */
export class TurnDeferred extends Error {
  constructor(readonly key: string) {
    super(`judge turn ${key} waits for its batch`);
    this.name = 'TurnDeferred';
  }
}
