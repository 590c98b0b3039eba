// OpenAI automatic prompt caching as the official SDK sees it over HTTP (Chat Completions and
// Responses): prompts from 1024 tokens, cached parts in steps of 128, 5 min retention.
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { estimateTokens, promptElements, startMockLlm, type ApiKind, type MockLlmServer } from '../src/index.js';

let clock = 0;
let server: MockLlmServer;
let openai: OpenAI;

beforeAll(async () => {
  server = await startMockLlm({
    now: () => clock,
    script: {
      rules: [
        {
          name: 'fixed',
          match: { user: /fixed usage/ },
          reply: { text: 'ok', usage: { input: 5000, output: 7, cachedInput: 20 } },
        },
      ],
      default: { text: 'ok' },
    },
  });
  openai = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.promptCache.clear();
  clock = 0;
});

const RUBRIC = 'Grade the answer against the rubric, point by point. '.repeat(120); // ~1600 tokens

const chat = (user: string, system = RUBRIC): ChatCompletionCreateParamsNonStreaming => ({
  model: 'gpt-mock',
  messages: [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ],
});

const canonical = (api: ApiKind, body: object) =>
  promptElements(api, body as Record<string, unknown>)
    .map((e) => e.text)
    .join('');

/** The cached part OpenAI reports for a shared prefix of `tokens`: 0 under 1024, else 1024 + 128 n. */
const step = (tokens: number) => (tokens < 1024 ? 0 : 1024 + 128 * Math.floor((tokens - 1024) / 128));

describe('OpenAI Chat Completions prompt caching', () => {
  it('reads the longest 128-token step of a repeated prompt on the second call', async () => {
    const body = chat('Grade answer 1');
    const prompt = estimateTokens(canonical('openai-chat', body));
    expect(prompt).toBeGreaterThan(1500);
    const r1 = await openai.chat.completions.create(body);
    expect(r1.usage).toMatchObject({ prompt_tokens: prompt, prompt_tokens_details: { cached_tokens: 0 } });
    const r2 = await openai.chat.completions.create(body);
    expect(r2.usage?.prompt_tokens_details?.cached_tokens).toBe(step(prompt));
    expect(prompt - step(prompt)).toBeLessThan(128);
    expect(server.requests.at(-1)?.cache).toMatchObject({ rule: 'openai', prompt, read: step(prompt), write: 0 });
  });

  it('reads only the steps inside the shared opening when the last message differs', async () => {
    const a = chat('Grade answer 1');
    const b = chat('Grade answer 2, which is longer');
    await openai.chat.completions.create(a);
    const r = await openai.chat.completions.create(b);
    const ca = canonical('openai-chat', a);
    const cb = canonical('openai-chat', b);
    let shared = 0;
    while (ca[shared] === cb[shared]) shared += 1;
    expect(r.usage?.prompt_tokens_details?.cached_tokens).toBe(step(Math.floor(shared / 4)));
  });

  it('caches nothing under 1024 tokens', async () => {
    const body = chat('Grade answer 1', 'Short rubric. '.repeat(250)); // ~880 tokens
    expect(estimateTokens(canonical('openai-chat', body))).toBeLessThan(1024);
    await openai.chat.completions.create(body);
    const r = await openai.chat.completions.create(body);
    expect(r.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
  });

  it('reports cached_tokens in the streamed usage chunk and forgets after 5 idle minutes', async () => {
    const body = chat('Grade answer 3');
    const prompt = estimateTokens(canonical('openai-chat', body));
    await openai.chat.completions.create(body);
    clock = 5 * 60_000 - 1;
    const stream = await openai.chat.completions.create({
      ...body,
      stream: true,
      stream_options: { include_usage: true },
    });
    let cached: number | undefined;
    for await (const chunk of stream) cached = chunk.usage?.prompt_tokens_details?.cached_tokens ?? cached;
    expect(cached).toBe(step(prompt));
    clock += 5 * 60_000;
    const late = await openai.chat.completions.create(body);
    expect(late.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
  });

  it('sends a script-fixed usage unchanged', async () => {
    const body = chat('fixed usage please');
    await openai.chat.completions.create(body);
    const r = await openai.chat.completions.create(body);
    expect(r.usage).toMatchObject({ prompt_tokens: 5000, prompt_tokens_details: { cached_tokens: 20 } });
    expect(server.requests.at(-1)?.cache?.read).toBeGreaterThan(1024);
  });
});

describe('OpenAI Responses prompt caching', () => {
  it('reports input_tokens_details.cached_tokens on the second call', async () => {
    const body = { model: 'gpt-mock', instructions: RUBRIC, input: 'Grade answer 4' };
    const prompt = estimateTokens(canonical('openai-responses', body));
    const r1 = await openai.responses.create(body);
    expect(r1.usage).toMatchObject({ input_tokens: prompt, input_tokens_details: { cached_tokens: 0 } });
    const r2 = await openai.responses.create(body);
    expect(r2.usage?.input_tokens_details.cached_tokens).toBe(step(prompt));
    // Another model has its own cache.
    const r3 = await openai.responses.create({ ...body, model: 'gpt-mock-2' });
    expect(r3.usage?.input_tokens_details.cached_tokens).toBe(0);
  });
});
