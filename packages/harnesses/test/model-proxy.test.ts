// The key-injecting proxy, over real HTTP on 127.0.0.1 against the scripted model
// server: the real key reaches the server (and the container's dummy does not), every
// API's usage is counted as the server reported it, and bad routes/upstreams fail cleanly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlmServer } from '@assay/mock-llm';
import { isThrottleResponse, startModelProxy, type ModelProxy } from '../src/model-proxy.js';
import { extractModels, extractUsage } from '../src/response-usage.js';

const REAL = 'sk-real-proxy-test-0123456789';
const DUMMY = 'dummy-key-in-container';
let mock: MockLlmServer;
let proxy: ModelProxy;

beforeAll(async () => {
  mock = await startMockLlm({
    script: {
      rules: [],
      default: { text: 'hello from the model', usage: { input: 321, output: 12, cachedInput: 21 } },
    },
  });
  proxy = await startModelProxy({ port: 0 });
});
afterAll(async () => {
  await proxy.stop();
  await mock.close();
});

async function post(
  url: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

const cases = [
  {
    api: 'openai-chat',
    path: '/chat/completions',
    auth: { authorization: `Bearer ${DUMMY}` },
    body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
  },
  {
    api: 'openai-chat',
    path: '/chat/completions',
    auth: { authorization: `Bearer ${DUMMY}` },
    body: {
      model: 'm',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hi' }],
    },
  },
  {
    api: 'openai-responses',
    path: '/responses',
    auth: { authorization: `Bearer ${DUMMY}` },
    body: { model: 'm', stream: true, input: 'hi' },
  },
  {
    api: 'openai-responses',
    path: '/responses',
    auth: { authorization: `Bearer ${DUMMY}` },
    body: { model: 'm', input: 'hi' },
  },
  {
    api: 'anthropic',
    path: '/v1/messages',
    auth: { 'x-api-key': DUMMY },
    body: { model: 'm', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }] },
  },
  {
    api: 'anthropic',
    path: '/v1/messages',
    auth: { 'x-api-key': DUMMY },
    body: { model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] },
  },
  {
    api: 'gemini',
    path: '/v1beta/models/m:streamGenerateContent?alt=sse',
    auth: { 'x-goog-api-key': DUMMY },
    body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
  },
  {
    api: 'gemini',
    path: `/v1beta/models/m:generateContent?key=${DUMMY}`,
    auth: {},
    body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
  },
] as const;

describe('model proxy', () => {
  it.each(cases)('$api $path: injects the real key, drops the dummy, counts usage', async (c) => {
    mock.clearRecords();
    const base = proxy.open(`route-${c.api}`, { upstream: mock.url, api: c.api, key: REAL });
    const before = proxy.usage(`route-${c.api}`);
    const res = await post(`${base}${c.path}`, c.body, c.auth);
    expect(res.status).toBe(200);
    expect(res.text).toContain('hello');
    expect(mock.sawCredential(REAL)).toBe(true);
    expect(mock.sawCredential(DUMMY)).toBe(false);
    expect(mock.requests[0]?.path).not.toContain(DUMMY);
    const after = proxy.usage(`route-${c.api}`);
    const server = mock.totalUsage();
    expect(after.requests - before.requests).toBe(1);
    expect(after.inputTokens - before.inputTokens).toBe(server.input);
    expect(after.outputTokens - before.outputTokens).toBe(server.output);
    expect(after.cachedInputTokens - before.cachedInputTokens).toBe(server.cachedInput);
    expect(server).toEqual({ input: 321, output: 12, cachedInput: 21 });
    mock.assertNoSecret(REAL);
  });

  it('collects the model ids named in successful answers, once each, in every API and stream form', async () => {
    // The scripted server answers with the model the request named: each API, whole and streamed.
    const calls = [
      {
        api: 'openai-chat',
        path: '/chat/completions',
        body: (m: string) => ({ model: m, messages: [{ role: 'user', content: 'hi' }] }),
      },
      {
        api: 'openai-chat',
        path: '/chat/completions',
        body: (m: string) => ({ model: m, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      },
      { api: 'openai-responses', path: '/responses', body: (m: string) => ({ model: m, input: 'hi' }) },
      { api: 'openai-responses', path: '/responses', body: (m: string) => ({ model: m, stream: true, input: 'hi' }) },
      {
        api: 'anthropic',
        path: '/v1/messages',
        body: (m: string) => ({ model: m, max_tokens: 9, messages: [{ role: 'user', content: 'hi' }] }),
      },
      {
        api: 'anthropic',
        path: '/v1/messages',
        body: (m: string) => ({ model: m, max_tokens: 9, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      },
    ] as const;
    for (const [i, c] of calls.entries()) {
      const id = `models-${i}`;
      const base = proxy.open(id, { upstream: mock.url, api: c.api, key: REAL });
      for (const m of ['model-a', 'model-b', 'model-a'])
        expect((await post(`${base}${c.path}`, c.body(m), {})).status).toBe(200);
      expect(proxy.usage(id).models, `${c.api} ${i}`).toEqual(['model-a', 'model-b']);
    }
    // Gemini names the model in the path and answers with modelVersion.
    const gemini = proxy.open('models-gemini', { upstream: mock.url, api: 'gemini', key: REAL });
    const contents = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    await post(`${gemini}/v1beta/models/gem-1:generateContent`, contents, {});
    await post(`${gemini}/v1beta/models/gem-2:streamGenerateContent?alt=sse`, contents, {});
    expect(proxy.usage('models-gemini').models).toEqual(['gem-1', 'gem-2']);

    // A failed answer names nothing; a route with no answers yet has none; usage() hands out a copy.
    mock.setScript({ rules: [{ fault: { kind: '500' } }] });
    const failing = proxy.open('models-failed', { upstream: mock.url, api: 'openai-chat', key: REAL });
    const failed = await post(`${failing}/chat/completions`, { model: 'never', messages: [] }, {});
    expect(failed.status).toBe(500);
    expect(proxy.usage('models-failed')).toMatchObject({ failed: 1, models: [] });
    expect(proxy.usage('no-such-route').models).toEqual([]);
    proxy.usage('models-0').models.push('tampered');
    expect(proxy.usage('models-0').models).toEqual(['model-a', 'model-b']);
    mock.setScript({
      rules: [],
      default: { text: 'hello from the model', usage: { input: 321, output: 12, cachedInput: 21 } },
    });
  });

  it('answers 404 for a closed or unknown route, and never forwards it', async () => {
    const base = proxy.open('closing', { upstream: mock.url, api: 'openai-chat', key: REAL });
    proxy.close('closing');
    mock.clearRecords();
    const res = await post(`${base}/chat/completions`, { model: 'm', messages: [] }, {});
    expect(res.status).toBe(404);
    expect((await post(`http://127.0.0.1:${proxy.port}/elsewhere`, {}, {})).status).toBe(404);
    expect(mock.requests).toHaveLength(0);
  });

  it('counts a failed upstream answer as failed, and a dead upstream as 502', async () => {
    const base = proxy.open('faulty', { upstream: mock.url, api: 'openai-chat', key: REAL });
    mock.setScript({ rules: [{ fault: { kind: '500' } }] });
    const res = await post(`${base}/chat/completions`, { model: 'm', messages: [{ role: 'user', content: 'x' }] }, {});
    expect(res.status).toBe(500);
    expect(proxy.usage('faulty')).toMatchObject({ requests: 1, failed: 1, inputTokens: 0 });
    mock.setScript({
      rules: [],
      default: { text: 'hello from the model', usage: { input: 321, output: 12, cachedInput: 21 } },
    });

    const dead = proxy.open('dead', { upstream: 'http://127.0.0.1:9', api: 'openai-chat', key: REAL });
    const down = await post(`${dead}/chat/completions`, { model: 'm', messages: [] }, {});
    expect(down.status).toBe(502);
    expect(down.text).not.toContain(REAL);
  });

  it('notes throttled answers (429, overloaded) apart from other failures, with the time of the last', async () => {
    const base = proxy.open('throttled', { upstream: mock.url, api: 'openai-chat', key: REAL });
    mock.setScript({
      rules: [
        { fault: { kind: '429', retryAfter: 0 }, times: 3 },
        { fault: { kind: '500' }, times: 1 },
      ],
      default: { text: 'ok', usage: { input: 1, output: 1 } },
    });
    const body = { model: 'm', messages: [{ role: 'user', content: 'x' }] };
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await post(`${base}/chat/completions`, body, {})).status);
    expect(statuses).toEqual([429, 429, 429, 500, 200]);
    const u = proxy.usage('throttled');
    expect(u).toMatchObject({ requests: 5, failed: 4, throttled: 3 });
    expect(Date.now() - Date.parse(u.lastThrottledAt ?? '')).toBeLessThan(60_000);
    expect([isThrottleResponse(529, ''), isThrottleResponse(503, '{"type":"overloaded_error"}')]).toEqual([true, true]);
    expect([isThrottleResponse(500, 'internal'), isThrottleResponse(400, 'overloaded')]).toEqual([false, false]);
    mock.setScript({
      rules: [],
      default: { text: 'hello from the model', usage: { input: 321, output: 12, cachedInput: 21 } },
    });
  });

  it('sends no key header at all when the system names no key', async () => {
    mock.clearRecords();
    const base = proxy.open('keyless', { upstream: mock.url, api: 'openai-chat', key: '' });
    await post(
      `${base}/chat/completions`,
      { model: 'm', messages: [{ role: 'user', content: 'x' }] },
      { authorization: `Bearer ${DUMMY}` },
    );
    expect(mock.requests[0]?.credentials).toEqual([]);
  });

  it('prefers its configured port and falls back to a free one when taken', async () => {
    const second = await startModelProxy({ port: proxy.port });
    try {
      expect(second.port).not.toBe(proxy.port);
      expect(second.port).toBeGreaterThan(0);
    } finally {
      await second.stop();
    }
  });
});

describe('response usage', () => {
  it('reads Anthropic streams as input + cache reads, output from the last delta', () => {
    const sse = [
      'event: message_start',
      'data: {"type":"message_start","message":{"usage":{"input_tokens":100,"cache_read_input_tokens":50,"cache_creation_input_tokens":5,"output_tokens":1}}}',
      'event: message_delta',
      'data: {"type":"message_delta","usage":{"output_tokens":42}}',
    ].join('\n');
    expect(extractUsage('anthropic', sse)).toEqual({ inputTokens: 155, outputTokens: 42, cachedInputTokens: 50 });
  });

  it('takes the last cumulative Gemini chunk, with thoughts as output', () => {
    const body = JSON.stringify([
      { usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 1 } },
      {
        usageMetadata: {
          promptTokenCount: 10,
          candidatesTokenCount: 7,
          thoughtsTokenCount: 3,
          cachedContentTokenCount: 4,
        },
      },
    ]);
    expect(extractUsage('gemini', body)).toEqual({ inputTokens: 10, outputTokens: 10, cachedInputTokens: 4 });
  });

  it('reads the model the provider answered with, not the one asked for', () => {
    // An alias asked for, a dated snapshot answered (the provider's own ids).
    const chat = JSON.stringify({ object: 'chat.completion', model: 'gpt-4o-2024-08-06', choices: [] });
    expect(extractModels('openai-chat', chat)).toEqual(['gpt-4o-2024-08-06']);
    const sse = [
      'event: message_start',
      'data: {"type":"message_start","message":{"model":"claude-sonnet-4-20250514","usage":{"input_tokens":1}}}',
      'event: content_block_delta',
      'data: {"type":"content_block_delta","delta":{"type":"text_delta","text":"hi"}}',
    ].join('\n');
    expect(extractModels('anthropic', sse)).toEqual(['claude-sonnet-4-20250514']);
    const responses = 'data: {"type":"response.completed","response":{"object":"response","model":"o3-2025-04-16"}}';
    expect(extractModels('openai-responses', responses)).toEqual(['o3-2025-04-16']);
    expect(extractModels('gemini', JSON.stringify([{ modelVersion: 'gemini-2.5-pro' }]))).toEqual(['gemini-2.5-pro']);
    expect(extractModels('openai-chat', 'not json')).toEqual([]);
  });

  it('returns zeros for bodies without usage', () => {
    expect(extractUsage('openai-chat', 'not json')).toEqual({ inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 });
  });
});
