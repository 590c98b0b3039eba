// Types shared by the server, the script loader and the wire renderers.
import type { ApiKind, FaultKind, MatchSpec } from './script-schema.js';

export type { ApiKind, FaultKind, MatchSpec };

/** One message of a request, reduced to what rules match on. */
export interface NormalizedMessage {
  role: 'user' | 'assistant' | 'tool';
  text: string;
  toolCalls: { name: string; arguments: string }[];
}

/** A request as rules and reply functions see it, whatever API it came through. */
export interface MockRequest {
  api: ApiKind;
  model: string;
  stream: boolean;
  system: string;
  /** The newest user-authored text (tool results excluded). */
  user: string;
  /** Tool results sent since the last assistant turn, joined by newlines. */
  toolResult: string;
  /** All request text: system, messages, tool calls and results. */
  all: string;
  /** Names of tools offered. */
  tools: string[];
  /** 1 + assistant turns in the history. */
  turn: number;
  /** Requests of this conversation seen so far, this one included. */
  call: number;
  conversationKey: string;
  messages: NormalizedMessage[];
  body: unknown;
  /** Named regex groups captured by the rule that matched. */
  groups: Record<string, string>;
}

export interface ToolCallOut {
  name: string;
  /** An object, serialised as JSON on the wire; a string is sent verbatim (may be invalid JSON on purpose). */
  arguments: unknown;
}

/** A script's fixed usage. `input` is the whole prompt; cachedInput and cacheWrite are parts of it. */
export interface ReplyUsage {
  input: number;
  output: number;
  cachedInput?: number;
  cacheWrite?: number;
}

export interface MockReply {
  text?: string;
  toolCalls?: ToolCallOut[];
  usage?: ReplyUsage;
  stopReason?: 'stop' | 'length' | 'tool_calls';
  /** The model id the reply names; default: the one requested. */
  model?: string;
}

/** A reply: literal, a file-form template (strings with {{group}}, `$each` arrays), or a function (TS form). */
export type ReplySource = MockReply | ((req: MockRequest) => MockReply | Promise<MockReply>) | Record<string, unknown>;

export interface FaultInput {
  kind: FaultKind;
  retryAfter?: number;
  ms?: number;
  afterChunks?: number;
}

export interface MockRule {
  name?: string;
  match?: Omit<MatchSpec, 'model' | 'system' | 'user' | 'toolResult' | 'any'> & {
    model?: string | RegExp;
    system?: string | RegExp;
    user?: string | RegExp;
    toolResult?: string | RegExp;
    any?: string | RegExp;
  };
  reply?: ReplySource;
  fault?: FaultInput;
  times?: number;
  delayMs?: number;
  noRandomFaults?: boolean;
}

export interface RandomFaultsInput {
  seed?: number;
  rate: number;
  kinds: FaultKind[] | Partial<Record<FaultKind, number>>;
  retryAfter?: number;
  slowMs?: number;
  afterChunks?: number;
}

export interface MockScript {
  rules: MockRule[];
  default?: ReplySource;
  faults?: RandomFaultsInput;
  chunkChars?: number;
  /** Batch API timing and expiry (default: in progress for 50 ms, nothing expires). */
  batch?: { delayMs?: number; expire?: boolean };
}

/** A resolved reply with exact usage, as sent on the wire. */
export interface FinalReply {
  text: string;
  toolCalls: { id: string; name: string; arguments: string }[];
  /**
   * input: the whole prompt; cachedInput (read) and cacheWrite (of which cacheWrite1h with a 1 h TTL) are
   * parts of it. The write counts are optional so replies built before they existed stay valid (0).
   */
  usage: { input: number; output: number; cachedInput: number; cacheWrite?: number; cacheWrite1h?: number };
  stopReason: 'stop' | 'length' | 'tool_calls';
  /** The model id to name on the wire, when the reply overrides the requested one. */
  model?: string;
}

export interface ResolvedFault {
  kind: FaultKind;
  retryAfter: number;
  ms: number;
  afterChunks: number;
  random: boolean;
}
