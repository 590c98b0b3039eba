// Judge model over Anthropic Messages, through the official `@anthropic-ai/sdk`.
// Prompt caching (judge setup `promptCache`, on by default): three cache_control breakpoints (of the four the API takes), in its cache order tools → system
// → messages: after the system prompt (tools and instructions, the same for every session of a mode), after the
// submission part of the first user message (the same for every session of one submission: prompts.ts), and on
// the last block of the conversation (a session's next turn reads what its earlier turns wrote).
import type Anthropic from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import { toModelCallError, type JudgeModel, type ModelRequest, type ModelReply } from './judge-model.js';
import { toClientOptions, type ProviderOptions } from './provider-options.js';

function parseInput(args: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(args);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const EPHEMERAL = { type: 'ephemeral' } as const;

/** A user turn; its submission part (sharedChars) a block of its own that ends at a breakpoint. */
function userBlocks(t: { text: string; sharedChars?: number }, cache: boolean): TextBlockParam[] {
  const n = cache ? (t.sharedChars ?? 0) : 0;
  if (n <= 0 || n >= t.text.length) return [{ type: 'text', text: t.text }];
  return [
    { type: 'text', text: t.text.slice(0, n), cache_control: EPHEMERAL },
    { type: 'text', text: t.text.slice(n) },
  ];
}

/** The conversation's last block ends at a breakpoint, unless it has one already. */
function markLastBlock(messages: MessageParam[]): void {
  const content = messages.at(-1)?.content;
  const last = Array.isArray(content) ? content.at(-1) : undefined;
  if (last && (last.type === 'text' || last.type === 'tool_result') && !last.cache_control)
    last.cache_control = EPHEMERAL;
}

function toMessages(req: ModelRequest, cache: boolean): MessageParam[] {
  const out: MessageParam[] = [];
  // Consecutive user-side turns (tool results, then a correction) merge into one user message.
  const pushUser = (blocks: ContentBlockParam[]) => {
    const last = out.at(-1);
    if (last && last.role === 'user' && Array.isArray(last.content)) last.content.push(...blocks);
    else out.push({ role: 'user', content: blocks });
  };
  for (const t of req.turns) {
    if (t.role === 'user') pushUser(userBlocks(t, cache));
    else if (t.role === 'assistant') {
      const content: ContentBlockParam[] = [];
      if (t.text.length > 0) content.push({ type: 'text', text: t.text });
      for (const c of t.toolCalls)
        content.push({ type: 'tool_use', id: c.id, name: c.name, input: parseInput(c.arguments) });
      out.push({ role: 'assistant', content: content.length > 0 ? content : [{ type: 'text', text: '(no content)' }] });
    } else {
      pushUser(
        t.results.map((r) => ({
          type: 'tool_result' as const,
          tool_use_id: r.callId,
          content: r.image
            ? [
                { type: 'text' as const, text: r.text },
                {
                  type: 'image' as const,
                  source: {
                    type: 'base64' as const,
                    media_type: 'image/png' as const,
                    data: Buffer.from(r.image).toString('base64'),
                  },
                },
              ]
            : r.text,
        })),
      );
    }
  }
  if (cache) markLastBlock(out);
  return out;
}

/** The Messages request body of one judge turn (live and batched turns alike). */
export function buildAnthropicParams(o: ProviderOptions, req: ModelRequest): MessageCreateParamsNonStreaming {
  const tools: Tool[] = req.tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: { type: 'object', ...t.parameters },
  }));
  return {
    model: o.model,
    max_tokens: o.maxOutputTokens,
    system: [{ type: 'text', text: req.system, ...(o.promptCache ? { cache_control: EPHEMERAL } : {}) }],
    messages: toMessages(req, o.promptCache),
    tools,
  };
}

/** A Messages reply as the judge sees it; input usage is the whole prompt (Anthropic reports its parts). */
export function anthropicReply(r: Message): ModelReply {
  const text = r.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
  const toolCalls = r.content.flatMap((b) =>
    b.type === 'tool_use'
      ? [{ id: b.id, name: b.name, arguments: typeof b.input === 'string' ? b.input : JSON.stringify(b.input) }]
      : [],
  );
  const cacheRead = r.usage.cache_read_input_tokens ?? 0;
  const cacheWrite = r.usage.cache_creation_input_tokens ?? 0;
  return {
    text,
    toolCalls,
    usage: {
      inputTokens: r.usage.input_tokens + cacheRead + cacheWrite,
      outputTokens: r.usage.output_tokens,
      cachedInputTokens: cacheRead,
      cacheWriteInputTokens: cacheWrite,
    },
    stopReason: r.stop_reason ?? 'unknown',
    model: r.model || null,
  };
}

export function createAnthropicModel(o: ProviderOptions): JudgeModel {
  // The SDK (~0.35 s of CPU, ~20 MB) is loaded by the first call: a worker whose jobs never judge never loads it.
  let client: Promise<Anthropic> | undefined;
  const clientOf = (): Promise<Anthropic> =>
    (client ??= import('@anthropic-ai/sdk').then(({ default: Sdk }) => new Sdk(toClientOptions(o))));
  return {
    provider: 'anthropic',
    model: o.model,
    // SDK 1.x follows the current Messages API: temperature is deprecated and there is no seed,
    // so neither is sent and the identity records null for both.
    temperature: null,
    seed: null,
    async complete(req): Promise<ModelReply> {
      try {
        const r = await (await clientOf()).messages.create(buildAnthropicParams(o, req), { signal: req.signal });
        return anthropicReply(r);
      } catch (err) {
        throw toModelCallError(err, req.signal);
      }
    },
  };
}
