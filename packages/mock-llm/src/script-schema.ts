// The script a mock server answers from: ordered rules (first match wins) that map
// request content to a reply or an injected fault. The file form (YAML/JSON) uses
// regex strings and templates; the TS form may also use RegExp objects and reply
// functions.
import { z } from 'zod';

const API_KINDS = ['openai-chat', 'openai-responses', 'anthropic', 'gemini'] as const;
export type ApiKind = (typeof API_KINDS)[number];

const FAULT_KINDS = ['429', '500', 'hang', 'truncate', 'malformed', 'slow'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

const pattern = z.union([z.string(), z.instanceof(RegExp)]);

const turnMatch = z.union([
  z.number().int().positive(),
  z.object({ min: z.number().int().positive().optional(), max: z.number().int().positive().optional() }).strict(),
]);

const matchSchema = z
  .object({
    api: z.union([z.enum(API_KINDS), z.array(z.enum(API_KINDS))]).optional(),
    model: pattern.optional(),
    system: pattern.optional(),
    /** The newest user-authored text (tool results excluded). */
    user: pattern.optional(),
    /** Tool results sent since the last assistant turn. */
    toolResult: pattern.optional(),
    /** Anything in the request: system, every message, tool results. */
    any: pattern.optional(),
    /** A tool of this name is offered to the model. */
    tool: z.string().optional(),
    /** 1 + the number of assistant turns already in the request's history. */
    turn: turnMatch.optional(),
    /** How many requests of this conversation the server has seen, this one included (retries count). */
    call: turnMatch.optional(),
    stream: z.boolean().optional(),
  })
  .strict();
export type MatchSpec = z.infer<typeof matchSchema>;

const usageSpecSchema = z
  .object({
    input: z.number().int().nonnegative(),
    output: z.number().int().nonnegative(),
    /** Part of `input` read from the prompt cache. */
    cachedInput: z.number().int().nonnegative().default(0),
    /** Part of `input` written to the prompt cache (Anthropic cache_creation_input_tokens). */
    cacheWrite: z.number().int().nonnegative().default(0),
  })
  .strict();
const toolCallSpecSchema = z
  .object({
    name: z.string().min(1),
    /** An object (serialised for the wire) or a raw string, which may be deliberately invalid JSON. */
    arguments: z.unknown().default({}),
  })
  .strict();

export const replySpecSchema = z
  .object({
    text: z.string().optional(),
    toolCalls: z.array(toolCallSpecSchema).default([]),
    usage: usageSpecSchema.optional(),
    stopReason: z.enum(['stop', 'length', 'tool_calls']).optional(),
    /** The model id the reply names (as a provider serving another model would); default: the one requested. */
    model: z.string().min(1).optional(),
  })
  .strict();
export const faultSpecSchema = z
  .object({
    kind: z.enum(FAULT_KINDS),
    /** 429: seconds in retry-after. */
    retryAfter: z.number().nonnegative().default(1),
    /** slow: delay before the reply (and between stream chunks, split evenly). */
    ms: z.number().int().nonnegative().default(2000),
    /** truncate: stream chunks (or half the body) sent before the connection is cut. */
    afterChunks: z.number().int().nonnegative().default(2),
  })
  .strict();
export const randomFaultsSchema = z
  .object({
    seed: z.number().int().default(1),
    /** Probability that a request gets a fault, 0–1. */
    rate: z.number().min(0).max(1),
    /** Fault kinds drawn uniformly, or with weights. */
    kinds: z.union([z.array(z.enum(FAULT_KINDS)).min(1), z.record(z.enum(FAULT_KINDS), z.number().nonnegative())]),
    retryAfter: z.number().nonnegative().default(1),
    slowMs: z.number().int().nonnegative().default(500),
    afterChunks: z.number().int().nonnegative().default(2),
  })
  .strict();
/** How the batch APIs behave (batch-store.ts). */
export const batchSettingsSchema = z
  .object({
    /** How long a batch stays in progress after it is created, in ms of the server's clock. */
    delayMs: z.number().int().nonnegative().default(50),
    /** The batch runs out of time: every request not answered by then is `expired`. */
    expire: z.boolean().default(false),
  })
  .strict();
export type BatchSettings = z.infer<typeof batchSettingsSchema>;

const ruleBase = {
  name: z.string().optional(),
  match: matchSchema.default({}),
  fault: faultSpecSchema.optional(),
  /** Use this rule at most this many times, then skip it. */
  times: z.number().int().positive().optional(),
  /** Extra delay before answering, in ms. */
  delayMs: z.number().int().nonnegative().default(0),
  /** Exempt from random faults (e.g. a rule that itself tests a fault). */
  noRandomFaults: z.boolean().default(false),
};

const fileRuleSchema = z.object({ ...ruleBase, reply: z.unknown().optional() }).strict();

export const fileScriptSchema = z
  .object({
    rules: z.array(fileRuleSchema).default([]),
    default: z.unknown().optional(),
    faults: randomFaultsSchema.optional(),
    /** Stream chunk size in characters for text and tool arguments. */
    chunkChars: z.number().int().positive().default(16),
    batch: batchSettingsSchema.optional(),
  })
  .strict();
