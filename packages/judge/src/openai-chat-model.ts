// Judge model over OpenAI-compatible Chat Completions, through the official `openai` SDK.
import type OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { toModelCallError, type JudgeModel, type ModelRequest, type ModelReply } from './judge-model.js';
import { toClientOptions, type ProviderOptions } from './provider-options.js';

function toMessages(req: ModelRequest): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [{ role: 'system', content: req.system }];
  for (const t of req.turns) {
    if (t.role === 'user') out.push({ role: 'user', content: t.text });
    else if (t.role === 'assistant') {
      out.push({
        role: 'assistant',
        content: t.text.length > 0 ? t.text : null,
        ...(t.toolCalls.length > 0
          ? {
              tool_calls: t.toolCalls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: c.arguments },
              })),
            }
          : {}),
      });
    } else {
      for (const r of t.results) out.push({ role: 'tool', tool_call_id: r.callId, content: r.text });
      // Tool messages carry text only; page images follow as one user message.
      const images = t.results.filter((r) => r.image);
      if (images.length > 0) {
        out.push({
          role: 'user',
          content: [
            { type: 'text', text: `Page image(s) requested by ${images.map((r) => r.callId).join(', ')}:` },
            ...images.map((r) => ({
              type: 'image_url' as const,
              image_url: { url: `data:image/png;base64,${Buffer.from(r.image ?? []).toString('base64')}` },
            })),
          ],
        });
      }
    }
  }
  return out;
}

/** The Chat Completions request body of one judge turn (live and batched turns alike). */
export function buildChatParams(o: ProviderOptions, req: ModelRequest): ChatCompletionCreateParamsNonStreaming {
  const tools: ChatCompletionTool[] = req.tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
  return {
    model: o.model,
    messages: toMessages(req),
    tools,
    tool_choice: 'auto',
    temperature: o.temperature,
    max_completion_tokens: o.maxOutputTokens,
    ...(o.seed !== null ? { seed: o.seed } : {}),
  };
}

/** A chat completion as the judge sees it. */
export function chatReply(r: ChatCompletion): ModelReply {
  const msg = r.choices[0]?.message;
  const calls = (msg?.tool_calls ?? []).flatMap((c) =>
    c.type === 'function' ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments }] : [],
  );
  return {
    text: msg?.content ?? '',
    toolCalls: calls,
    usage: {
      inputTokens: r.usage?.prompt_tokens ?? 0,
      outputTokens: r.usage?.completion_tokens ?? 0,
      cachedInputTokens: r.usage?.prompt_tokens_details?.cached_tokens ?? 0,
      // OpenAI bills no cache writes: its prefix cache is automatic.
      cacheWriteInputTokens: 0,
    },
    stopReason: r.choices[0]?.finish_reason ?? 'unknown',
    model: r.model || null,
  };
}

export function createOpenAiChatModel(o: ProviderOptions): JudgeModel {
  // The SDK is loaded by the first call: a worker whose jobs never judge never loads it.
  let client: Promise<OpenAI> | undefined;
  const clientOf = (): Promise<OpenAI> =>
    (client ??= import('openai').then(({ default: Sdk }) => new Sdk(toClientOptions(o))));
  return {
    provider: 'openai',
    model: o.model,
    temperature: o.temperature,
    seed: o.seed,
    async complete(req): Promise<ModelReply> {
      try {
        const r = await (await clientOf()).chat.completions.create(buildChatParams(o, req), { signal: req.signal });
        return chatReply(r);
      } catch (err) {
        throw toModelCallError(err, req.signal);
      }
    },
  };
}
