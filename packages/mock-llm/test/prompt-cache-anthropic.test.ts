// Anthropic prompt caching as the official SDK sees it over HTTP: breakpoints write, later
// calls read, the minimum, TTLs on an injected clock, and the 4-breakpoint limit.
import Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { estimateTokens, promptElements, startMockLlm, type MockLlmServer } from '../src/index.js';

let clock = 0;
let server: MockLlmServer;
let anthropic: Anthropic;

beforeAll(async () => {
  server = await startMockLlm({
    now: () => clock,
    script: {
      rules: [
        {
          name: 'fixed',
          match: { user: /fixed usage/ },
          reply: { text: 'ok', usage: { input: 5000, output: 7, cachedInput: 100 } },
        },
      ],
      default: { text: 'ok' },
    },
  });
  anthropic = new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, maxRetries: 0 });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.promptCache.clear();
  clock = 0;
});

const SYSTEM = 'You review code for correctness and style. '.repeat(280); // ~3000 tokens
const TOOLS: Anthropic.Tool[] = [
  {
    name: 'grep',
    description: 'Search files',
    input_schema: { type: 'object', properties: { q: { type: 'string' } } },
  },
  { name: 'read_file', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } },
];

function request(user: string, o: { system?: string; ttl?: '5m' | '1h' } = {}): MessageCreateParamsNonStreaming {
  return {
    model: 'claude-sonnet-mock',
    max_tokens: 50,
    tools: TOOLS,
    system: [{ type: 'text', text: o.system ?? SYSTEM, cache_control: { type: 'ephemeral', ttl: o.ttl ?? '5m' } }],
    messages: [{ role: 'user', content: user }],
  };
}

/** Tokens of the first `n` canonical elements of a request (the whole prompt without `n`). */
function tokens(body: MessageCreateParamsNonStreaming, n?: number): number {
  const els = promptElements('anthropic', body as unknown as Record<string, unknown>);
  return estimateTokens(
    els
      .slice(0, n)
      .map((e) => e.text)
      .join(''),
  );
}

describe('Anthropic prompt caching', () => {
  it('writes the tools + system prefix, then a call with another question reads it', async () => {
    const first = request('Review a.ts');
    const prefix = tokens(first, 3); // 2 tools + the system block
    expect(prefix).toBeGreaterThan(3000);
    const r1 = await anthropic.messages.create(first);
    expect(r1.usage).toMatchObject({
      cache_creation_input_tokens: prefix,
      cache_read_input_tokens: 0,
      input_tokens: tokens(first) - prefix,
      cache_creation: { ephemeral_5m_input_tokens: prefix, ephemeral_1h_input_tokens: 0 },
    });
    expect(server.requests.at(-1)?.cache).toMatchObject({ rule: 'anthropic', read: 0, write: prefix });

    const second = request('Now review b.ts, please, and be thorough');
    const r2 = await anthropic.messages.create(second);
    expect(r2.usage).toMatchObject({
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: prefix,
      input_tokens: tokens(second) - prefix,
    });
    expect(server.requests.at(-1)?.usage).toMatchObject({ input: tokens(second), cachedInput: prefix, cacheWrite: 0 });
  });

  it('reports the accounting in message_start and message_delta when streaming', async () => {
    const body = request('Review c.ts');
    const prefix = tokens(body, 3);
    await anthropic.messages.create(body);
    const stream = anthropic.messages.stream(request('Review d.ts'));
    const usages: Record<string, unknown>[] = [];
    stream.on('streamEvent', (e) => {
      if (e.type === 'message_start') usages.push({ ...e.message.usage });
      if (e.type === 'message_delta') usages.push({ ...e.usage });
    });
    const final = await stream.finalMessage();
    const input = tokens(request('Review d.ts')) - prefix;
    const expected = { input_tokens: input, cache_read_input_tokens: prefix, cache_creation_input_tokens: 0 };
    expect(usages).toEqual([expect.objectContaining(expected), expect.objectContaining(expected)]);
    expect(final.usage).toMatchObject(expected);
  });

  it('never caches a prefix under the minimum (1024 tokens here)', async () => {
    const short = 'Be brief. '.repeat(300); // ~750 tokens with the tools
    for (let i = 0; i < 2; i += 1) {
      const r = await anthropic.messages.create(request(`q${i}`, { system: short }));
      expect(r.usage).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    }
  });

  it('misses when the system text changes, even in its first byte', async () => {
    await anthropic.messages.create(request('Review a.ts'));
    const changed = request('Review a.ts', { system: `y${SYSTEM.slice(1)}` });
    const r = await anthropic.messages.create(changed);
    expect(r.usage).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: tokens(changed, 3) });
  });

  it('expires 5 minutes after the last use, on the injected clock', async () => {
    const prefix = tokens(request('x'), 3);
    await anthropic.messages.create(request('call 1'));
    clock = 4 * 60_000;
    expect((await anthropic.messages.create(request('call 2'))).usage.cache_read_input_tokens).toBe(prefix);
    clock = 8 * 60_000; // 4 min after the read that refreshed it
    expect((await anthropic.messages.create(request('call 3'))).usage.cache_read_input_tokens).toBe(prefix);
    clock = 13 * 60_000 + 1;
    const late = await anthropic.messages.create(request('call 4'));
    expect(late.usage).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: prefix });
  });

  it('keeps a ttl 1h entry for an hour', async () => {
    const prefix = tokens(request('x'), 3);
    const r1 = await anthropic.messages.create(request('call 1', { ttl: '1h' }));
    expect(r1.usage.cache_creation).toEqual({ ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: prefix });
    clock = 59 * 60_000;
    expect((await anthropic.messages.create(request('call 2', { ttl: '1h' }))).usage.cache_read_input_tokens).toBe(
      prefix,
    );
    clock += 60 * 60_000 + 1;
    expect((await anthropic.messages.create(request('call 3', { ttl: '1h' }))).usage.cache_read_input_tokens).toBe(0);
  });

  it('reads a conversation up to its previous last block when the breakpoint moves on', async () => {
    const turn = (n: number): MessageCreateParamsNonStreaming => {
      const history: Anthropic.MessageParam[] = [];
      for (let i = 1; i <= n; i += 1) {
        if (i > 1) history.push({ role: 'assistant', content: [{ type: 'text', text: `answer ${i - 1}` }] });
        history.push({ role: 'user', content: [{ type: 'text', text: `question ${i} `.repeat(50) }] });
      }
      const last = history.at(-1)?.content;
      if (Array.isArray(last) && last[0]?.type === 'text') last[0].cache_control = { type: 'ephemeral' };
      return { ...request(''), messages: history };
    };
    const t1 = turn(1);
    const r1 = await anthropic.messages.create(t1);
    expect(r1.usage).toMatchObject({ cache_creation_input_tokens: tokens(t1), input_tokens: 0 });
    const t2 = turn(2);
    const r2 = await anthropic.messages.create(t2);
    // The system and turn 1 are read (found 2 blocks back from the moved breakpoint); turn 2 is written.
    expect(r2.usage).toMatchObject({
      cache_read_input_tokens: tokens(t1),
      cache_creation_input_tokens: tokens(t2) - tokens(t1),
      input_tokens: 0,
    });
  });

  it('refuses more than 4 breakpoints with the API error, touching neither cache nor rules', async () => {
    const body = request('too many');
    const marked = { type: 'text' as const, text: 'part', cache_control: { type: 'ephemeral' as const } };
    body.messages = [{ role: 'user', content: [marked, marked, { ...marked, text: 'end' }] }];
    const err = await anthropic.messages.create(body).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect((err as Error).message).toContain('A maximum of 4 blocks with cache_control may be provided. Found 5.');
    expect(server.requests.at(-1)).toMatchObject({ status: 400, outcome: 'bad-request', cache: null, rule: null });
    expect(server.promptCache.size).toBe(0);
  });

  it('sends a script-fixed usage unchanged, recording what the cache did beside it', async () => {
    const body = request('fixed usage please');
    const r = await anthropic.messages.create(body);
    expect(r.usage).toMatchObject({
      input_tokens: 4900,
      cache_read_input_tokens: 100,
      cache_creation_input_tokens: 0,
      output_tokens: 7,
    });
    const rec = server.requests.at(-1);
    expect(rec?.usage).toMatchObject({ input: 5000, output: 7, cachedInput: 100, cacheWrite: 0 });
    expect(rec?.cache).toMatchObject({ write: tokens(body, 3), read: 0 });
  });
});
