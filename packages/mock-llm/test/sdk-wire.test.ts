// The official SDKs parse every wire format the server speaks, streaming included.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlmServer, type MockScript } from '../src/index.js';

const KEY = 'sk-test-5f2a9c0e1b7d4e3f8a6c';

const script: MockScript = {
  chunkChars: 5,
  rules: [
    {
      name: 'after-tool',
      match: { toolResult: /sunny/ },
      reply: { text: 'It is sunny in the city, 21 degrees.', usage: { input: 200, output: 12 } },
    },
    {
      name: 'weather-tool',
      match: { user: /weather in (?<city>\w+)/ },
      reply: {
        text: 'Let me check.',
        toolCalls: [{ name: 'get_weather', arguments: { city: '{{city}}', unit: 'C' } }],
        usage: { input: 120, output: 30, cachedInput: 20 },
      },
    },
    {
      name: 'served-by-another',
      match: { user: /which model/ },
      reply: { text: 'Another one.', model: 'served-model-2', usage: { input: 5, output: 3 } },
    },
    {
      name: 'greeting',
      match: { user: /hello/i },
      reply: { text: 'Hello there, how can I help you today?', usage: { input: 11, output: 9 } },
    },
  ],
};

let server: MockLlmServer;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  server = await startMockLlm({ script });
  openai = new OpenAI({ apiKey: KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: KEY, baseURL: server.url, maxRetries: 0 });
});
afterAll(async () => {
  await server.close();
});

const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

describe('OpenAI Chat Completions', () => {
  it('returns text with exact usage', async () => {
    const r = await openai.chat.completions.create({
      model: 'gpt-mock',
      messages: [{ role: 'user', content: 'Hello!' }],
    });
    expect(r.choices[0]?.message.content).toBe('Hello there, how can I help you today?');
    expect(r.choices[0]?.finish_reason).toBe('stop');
    expect(r.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 9, total_tokens: 20 });
  });

  it('returns tool calls with templated arguments', async () => {
    const r = await openai.chat.completions.create({
      model: 'gpt-mock',
      tools: [weatherTool],
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
    });
    const call = r.choices[0]?.message.tool_calls?.[0];
    expect(r.choices[0]?.finish_reason).toBe('tool_calls');
    expect(call?.type).toBe('function');
    if (call?.type !== 'function') throw new Error('expected a function call');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Paris', unit: 'C' });
    expect(r.usage?.prompt_tokens_details?.cached_tokens).toBe(20);
  });

  it('streams text and tool calls that the SDK stream helper reassembles, with usage', async () => {
    const stream = openai.chat.completions.stream({
      model: 'gpt-mock',
      tools: [weatherTool],
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'What is the weather in Oslo?' }],
    });
    const final = await stream.finalChatCompletion();
    const msg = final.choices[0]?.message;
    expect(msg?.content).toBe('Let me check.');
    const call = msg?.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error('expected a function call');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Oslo', unit: 'C' });
    expect(final.usage).toMatchObject({ prompt_tokens: 120, completion_tokens: 30 });
  });

  it('continues a conversation after a tool result', async () => {
    const r = await openai.chat.completions.create({
      model: 'gpt-mock',
      stream: true,
      messages: [
        { role: 'user', content: 'What is the weather in Oslo?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny, 21C' },
      ],
    });
    let text = '';
    let chunks = 0;
    for await (const chunk of r) {
      chunks += 1;
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect(text).toBe('It is sunny in the city, 21 degrees.');
    expect(chunks).toBeGreaterThan(5);
  });
});

describe('OpenAI Responses', () => {
  it('returns output_text, function calls and usage', async () => {
    const r = await openai.responses.create({
      model: 'gpt-mock',
      input: 'What is the weather in Rome?',
      tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {} }, strict: false }],
    });
    expect(r.output_text).toBe('Let me check.');
    const call = r.output.find((o) => o.type === 'function_call');
    if (call?.type !== 'function_call') throw new Error('expected a function call');
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Rome', unit: 'C' });
    expect(r.usage).toMatchObject({ input_tokens: 120, output_tokens: 30, total_tokens: 150 });
  });

  it('streams events that the SDK assembles into the final response', async () => {
    const stream = openai.responses.stream({
      model: 'gpt-mock',
      input: [{ role: 'user', content: 'What is the weather in Lima?' }],
    });
    const types: string[] = [];
    stream.on('event', (e) => types.push(e.type));
    const final = await stream.finalResponse();
    // The SDK's stream finaliser does not fill the output_text convenience field; read the message item.
    const message = final.output.find((o) => o.type === 'message');
    if (message?.type !== 'message') throw new Error('expected a message item');
    expect(message.content[0]).toMatchObject({ type: 'output_text', text: 'Let me check.' });
    const call = final.output.find((o) => o.type === 'function_call');
    if (call?.type !== 'function_call') throw new Error('expected a function call');
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Lima', unit: 'C' });
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(types).toContain('response.function_call_arguments.delta');
    expect(final.usage?.input_tokens).toBe(120);
  });
});

describe('OpenAI Responses tool loop', () => {
  it('sees function_call_output items as tool results', async () => {
    const r = await openai.responses.create({
      model: 'gpt-mock',
      input: [
        { role: 'user', content: 'What is the weather in Lima?' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Lima"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny, 24C' },
      ],
    });
    expect(r.output_text).toBe('It is sunny in the city, 21 degrees.');
    expect(server.requests.at(-1)?.rule).toBe('after-tool');
  });
});

describe('Anthropic Messages', () => {
  it('returns text and tool_use blocks with usage', async () => {
    const r = await anthropic.messages.create({
      model: 'claude-mock',
      max_tokens: 100,
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: {} } }],
      messages: [{ role: 'user', content: 'What is the weather in Cairo?' }],
    });
    expect(r.stop_reason).toBe('tool_use');
    expect(r.content[0]).toMatchObject({ type: 'text', text: 'Let me check.' });
    expect(r.content[1]).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Cairo', unit: 'C' } });
    expect(r.usage).toMatchObject({ input_tokens: 100, cache_read_input_tokens: 20, output_tokens: 30 });
  });

  it('streams the full event sequence and the SDK rebuilds the message', async () => {
    const stream = anthropic.messages.stream({
      model: 'claude-mock',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'What is the weather in Lagos?' }],
    });
    const events: string[] = [];
    stream.on('streamEvent', (e) => events.push(e.type));
    const final = await stream.finalMessage();
    expect(final.content[1]).toMatchObject({ type: 'tool_use', input: { city: 'Lagos', unit: 'C' } });
    expect(final.usage.output_tokens).toBe(30);
    expect(events[0]).toBe('message_start');
    expect(events.at(-1)).toBe('message_stop');
    expect(events).toContain('message_delta');
  });

  it('sees tool results in user turns', async () => {
    const r = await anthropic.messages.create({
      model: 'claude-mock',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'What is the weather in Lagos?' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Lagos' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
      ],
    });
    expect(r.content[0]).toMatchObject({ type: 'text', text: 'It is sunny in the city, 21 degrees.' });
    expect(server.requests.at(-1)?.rule).toBe('after-tool');
  });

  it('counts tokens', async () => {
    const r = await anthropic.messages.countTokens({
      model: 'claude-mock',
      messages: [{ role: 'user', content: 'Hello world, 12345678' }],
    });
    expect(r.input_tokens).toBeGreaterThan(0);
  });
});

describe('Gemini', () => {
  const body = {
    contents: [{ role: 'user', parts: [{ text: 'What is the weather in Lima?' }] }],
    tools: [{ functionDeclarations: [{ name: 'get_weather' }] }],
  };

  it('answers generateContent with a functionCall and usageMetadata', async () => {
    const res = await fetch(`${server.url}/v1beta/models/gemini-mock:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': KEY },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as {
      candidates: { content: { parts: unknown[] }; finishReason: string }[];
      usageMetadata: Record<string, number>;
    };
    expect(json.candidates[0]?.content.parts).toEqual([
      { text: 'Let me check.' },
      { functionCall: { name: 'get_weather', args: { city: 'Lima', unit: 'C' } } },
    ]);
    expect(json.candidates[0]?.finishReason).toBe('STOP');
    expect(json.usageMetadata).toMatchObject({ promptTokenCount: 120, candidatesTokenCount: 30, totalTokenCount: 150 });
  });

  it('streams with alt=sse and as a JSON array', async () => {
    const sse = await fetch(`${server.url}/v1beta/models/gemini-mock:streamGenerateContent?alt=sse&key=${KEY}`, {
      method: 'POST',
      body: JSON.stringify(body),
    });
    expect(sse.headers.get('content-type')).toMatch(/text\/event-stream/);
    const frames = (await sse.text())
      .split('\n\n')
      .filter((f) => f.startsWith('data: '))
      .map((f) => JSON.parse(f.slice(6)) as { candidates: { content: { parts: { text?: string }[] } }[] });
    expect(frames.map((f) => f.candidates[0]?.content.parts.map((p) => p.text ?? '').join('')).join('')).toBe(
      'Let me check.',
    );
    const arr = await fetch(`${server.url}/v1beta/models/gemini-mock:streamGenerateContent`, {
      method: 'POST',
      body: JSON.stringify(body),
    });
    const chunks = (await arr.json()) as unknown[];
    expect(chunks.length).toBe(frames.length);
    expect(server.sawCredential(KEY)).toBe(true);
    expect(server.requests.at(-2)?.path).not.toContain(KEY);
  });
});

describe('a reply naming another model', () => {
  const ask = [{ role: 'user' as const, content: 'which model answers?' }];

  it('names it in OpenAI chat completions, whole and streamed, and in Responses', async () => {
    const whole = await openai.chat.completions.create({ model: 'gpt-mock', messages: ask });
    expect(whole.model).toBe('served-model-2');
    const streamed = await openai.chat.completions.stream({ model: 'gpt-mock', messages: ask }).finalChatCompletion();
    expect(streamed.model).toBe('served-model-2');
    const response = await openai.responses.create({ model: 'gpt-mock', input: ask });
    expect(response.model).toBe('served-model-2');
    // The recorded request keeps the model that was asked for.
    expect(server.requests.at(-1)?.model).toBe('gpt-mock');
  });

  it('names it in Anthropic messages, whole and streamed', async () => {
    const whole = await anthropic.messages.create({ model: 'claude-mock', max_tokens: 10, messages: ask });
    expect(whole.model).toBe('served-model-2');
    const streamed = await anthropic.messages
      .stream({ model: 'claude-mock', max_tokens: 10, messages: ask })
      .finalMessage();
    expect(streamed.model).toBe('served-model-2');
  });

  it('otherwise echoes the requested model', async () => {
    const r = await openai.chat.completions.create({
      model: 'gpt-mock',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(r.model).toBe('gpt-mock');
  });
});

describe('recorder', () => {
  it('records credentials as hashes only and proves no key leaked', () => {
    expect(server.sawCredential(KEY)).toBe(true);
    expect(server.sawCredential('sk-other')).toBe(false);
    expect(() => server.assertNoSecret(KEY)).not.toThrow();
    expect(() => server.assertNoSecret('What is the weather')).toThrow(/plain text in recorded requests/);
    expect(() => server.assertNoSecret(KEY, { 'my log': `key=${KEY}` })).toThrow(/my log/);
    const auth = server.modelCalls('openai-chat')[0]?.headers.authorization;
    expect(auth).toMatch(/^\[redacted sha256:[0-9a-f]{12}\]$/);
  });
});
