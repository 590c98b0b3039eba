// The provider's response ids: read from every API's bodies, whole and streamed (rendered by the scripted
// model server's own wire code, with ids shaped like the real providers'), and counted by the proxy over
// real HTTP on 127.0.0.1 against the scripted model server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlmServer } from '@assay/mock-llm';
import type { ApiKind, FinalReply } from '@assay/mock-llm';
import { renderReplyJson, renderReplyStream } from '../../mock-llm/src/wire/render-reply.js';
import type { WireContext } from '../../mock-llm/src/wire/chunk-text.js';
import { startModelProxy, type ModelProxy } from '../src/model-proxy.js';
import { extractModels, extractResponseIds } from '../src/response-usage.js';

// Ids as the providers shape them (the Responses API's are longer than 40 characters).
const REAL_IDS: Record<ApiKind, string> = {
  'openai-chat': 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
  'openai-responses': 'resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b',
  anthropic: 'msg_013Zva2CMHLNnXjNJJKqJ2EF',
  gemini: '7Q4waJ-XMtOsgLUPwJ3M2AQ',
};
// Text in several stream pieces and a tool call: item, call and content-block ids are not response ids.
const reply: FinalReply = {
  text: 'hello from the model, in pieces',
  toolCalls: [{ id: 'call_abcdefghijklmnop', name: 'read_file', arguments: '{"path":"a.txt"}' }],
  usage: { input: 10, output: 5, cachedInput: 0 },
  stopReason: 'tool_calls',
};
const ctx = (api: ApiKind, includeUsage = false): WireContext => ({
  id: REAL_IDS[api],
  model: 'model-x',
  created: 1_767_225_600,
  chunkChars: 8,
  includeUsage,
});
const json = (api: ApiKind) => JSON.stringify(renderReplyJson(api, reply, ctx(api), { model: 'model-x' }));
const stream = (api: ApiKind, sse = true, includeUsage = false) =>
  renderReplyStream(api, reply, ctx(api, includeUsage), { model: 'model-x' }, sse).join('');

describe('response ids in a body', () => {
  it.each(Object.keys(REAL_IDS) as ApiKind[])('%s: the id of a whole answer and of a stream, once', (api) => {
    expect(extractResponseIds(api, json(api))).toEqual([REAL_IDS[api]]);
    // Every chunk (OpenAI chat, Gemini) or several events (Responses) repeat it: still one id.
    expect(extractResponseIds(api, stream(api))).toEqual([REAL_IDS[api]]);
  });

  it('reads every stream form: OpenAI chat with a usage chunk, Gemini as a JSON array', () => {
    expect(extractResponseIds('openai-chat', stream('openai-chat', true, true))).toEqual([REAL_IDS['openai-chat']]);
    const array = stream('gemini', false);
    expect(array.startsWith('[')).toBe(true);
    expect(extractResponseIds('gemini', array)).toEqual([REAL_IDS.gemini]);
  });

  it('names only the response, not its items, calls or content blocks', () => {
    const responses = stream('openai-responses');
    expect(responses).toContain('"id":"msg_');
    expect(responses).toContain('"id":"fc_');
    expect(extractResponseIds('openai-responses', responses)).toEqual([REAL_IDS['openai-responses']]);
    const anthropic = stream('anthropic');
    expect(anthropic).toContain('"id":"toolu_');
    expect(extractResponseIds('anthropic', anthropic)).toEqual([REAL_IDS.anthropic]);
  });

  it('keeps distinct ids in order, and finds none where there are none', () => {
    const two = [
      'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[]}',
      'data: {"id":"chatcmpl-2","object":"chat.completion.chunk","choices":[]}',
      'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[]}',
      'data: [DONE]',
    ].join('\n\n');
    expect(extractResponseIds('openai-chat', two)).toEqual(['chatcmpl-1', 'chatcmpl-2']);
    // Gemini through Code Assist wraps each chunk in `response`.
    expect(extractResponseIds('gemini', JSON.stringify([{ response: { responseId: 'r-1' } }]))).toEqual(['r-1']);
    expect(extractResponseIds('openai-chat', 'not json')).toEqual([]);
    expect(extractResponseIds('anthropic', '{"type":"error","error":{"type":"overloaded_error"}}')).toEqual([]);
    expect(extractResponseIds('gemini', '{"candidates":[]}')).toEqual([]);
    // The same bodies still name their model (the two readers do not disturb each other).
    expect(extractModels('anthropic', stream('anthropic'))).toEqual(['model-x']);
  });
});

describe('response ids through the proxy', () => {
  let mock: MockLlmServer;
  let proxy: ModelProxy;
  let stub: Server;
  let stubUrl: string;
  let stubBody = '';

  beforeAll(async () => {
    mock = await startMockLlm({
      script: { rules: [], default: { text: 'hello from the model', usage: { input: 3, output: 2 } } },
    });
    proxy = await startModelProxy({ port: 0 });
    // A provider answering with whatever body the test sets: ids as long as real ones.
    stub = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(stubBody);
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await proxy.stop();
    await mock.close();
    await new Promise<void>((resolve) => stub.close(() => resolve()));
  });

  const post = async (url: string, body: unknown) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, text: await res.text() };
  };
  const messages = [{ role: 'user', content: 'hi' }];
  const contents = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
  const calls = [
    { api: 'openai-chat', path: '/chat/completions', body: { model: 'm', messages } },
    {
      api: 'openai-chat',
      path: '/chat/completions',
      body: { model: 'm', stream: true, stream_options: { include_usage: true }, messages },
    },
    { api: 'openai-responses', path: '/responses', body: { model: 'm', input: 'hi' } },
    { api: 'openai-responses', path: '/responses', body: { model: 'm', stream: true, input: 'hi' } },
    { api: 'anthropic', path: '/v1/messages', body: { model: 'm', max_tokens: 9, messages } },
    { api: 'anthropic', path: '/v1/messages', body: { model: 'm', max_tokens: 9, stream: true, messages } },
    { api: 'gemini', path: '/v1beta/models/m:generateContent', body: contents },
    { api: 'gemini', path: '/v1beta/models/m:streamGenerateContent?alt=sse', body: contents },
    { api: 'gemini', path: '/v1beta/models/m:streamGenerateContent', body: contents },
  ] as const;

  it('counts the distinct ids of successful answers, with the first and the last, in every API', async () => {
    const seen: string[] = [];
    for (const [i, c] of calls.entries()) {
      const id = `ids-${i}`;
      const base = proxy.open(id, { upstream: mock.url, api: c.api, key: 'k' });
      for (let n = 0; n < 3; n++) expect((await post(`${base}${c.path}`, c.body)).status).toBe(200);
      const { responseIds } = proxy.usage(id);
      seen.push(`${c.api} ${c.path}: ${JSON.stringify(responseIds)}`);
    }
    // The scripted server numbers its replies: three distinct ids per route.
    expect(seen).toMatchInlineSnapshot(`
      [
        "openai-chat /chat/completions: {"count":3,"first":"chatcmpl-mock00000001","last":"chatcmpl-mock00000003"}",
        "openai-chat /chat/completions: {"count":3,"first":"chatcmpl-mock00000004","last":"chatcmpl-mock00000006"}",
        "openai-responses /responses: {"count":3,"first":"resp_mock00000007","last":"resp_mock00000009"}",
        "openai-responses /responses: {"count":3,"first":"resp_mock00000010","last":"resp_mock00000012"}",
        "anthropic /v1/messages: {"count":3,"first":"msg_mock00000013","last":"msg_mock00000015"}",
        "anthropic /v1/messages: {"count":3,"first":"msg_mock00000016","last":"msg_mock00000018"}",
        "gemini /v1beta/models/m:generateContent: {"count":3,"first":"mock00000019","last":"mock00000021"}",
        "gemini /v1beta/models/m:streamGenerateContent?alt=sse: {"count":3,"first":"mock00000022","last":"mock00000024"}",
        "gemini /v1beta/models/m:streamGenerateContent: {"count":3,"first":"mock00000025","last":"mock00000027"}",
      ]
    `);
  });

  it('leaves failed answers out; a route with no answers has none; usage() hands out a copy', async () => {
    const base = proxy.open('ids-failing', { upstream: mock.url, api: 'openai-chat', key: 'k' });
    mock.setScript({
      rules: [{ fault: { kind: '500' }, times: 1 }],
      default: { text: 'ok', usage: { input: 1, output: 1 } },
    });
    expect((await post(`${base}/chat/completions`, { model: 'm', messages })).status).toBe(500);
    expect(proxy.usage('ids-failing')).toMatchObject({ failed: 1, responseIds: { count: 0, first: null, last: null } });
    expect((await post(`${base}/chat/completions`, { model: 'm', messages })).status).toBe(200);
    expect(proxy.usage('ids-failing').responseIds).toEqual({
      count: 1,
      first: expect.stringMatching(/^chatcmpl-/),
      last: expect.stringMatching(/^chatcmpl-/),
    });
    expect(proxy.usage('no-such-route').responseIds).toEqual({ count: 0, first: null, last: null });
    const copy = proxy.usage('ids-failing');
    if (copy.responseIds) copy.responseIds.count = 99;
    expect(proxy.usage('ids-failing').responseIds?.count).toBe(1);
  });

  it('cuts long ids to 40 characters and counts an id repeated in a later answer once', async () => {
    const base = proxy.open('ids-long', { upstream: stubUrl, api: 'openai-responses', key: 'k' });
    const long = REAL_IDS['openai-responses'];
    const other = 'resp_0123456789abcdef0123456789abcdef0123456789abcdef';
    for (const id of [long, other, long]) {
      stubBody = JSON.stringify({ id, object: 'response', model: 'o3', output: [], usage: null });
      expect((await post(`${base}/responses`, { model: 'o3', input: 'hi' })).status).toBe(200);
    }
    expect(proxy.usage('ids-long').responseIds).toMatchInlineSnapshot(`
      {
        "count": 2,
        "first": "resp_67ccd2bed1ec8190b14f964abc0542670bb",
        "last": "resp_67ccd2bed1ec8190b14f964abc0542670bb",
      }
    `);
  });
});
