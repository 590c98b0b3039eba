// Injected faults behave like real API failures as the SDKs see them.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlmServer, type MockScript } from '../src/index.js';

const script: MockScript = {
  rules: [
    { name: 'limit-once', match: { user: /rate-limit me/ }, fault: { kind: '429', retryAfter: 0.2 }, times: 1 },
    { name: 'boom', match: { user: /server error/ }, fault: { kind: '500' } },
    { name: 'hang', match: { user: /hang up/ }, fault: { kind: 'hang' } },
    {
      name: 'cut',
      match: { user: /cut stream/ },
      fault: { kind: 'truncate', afterChunks: 3 },
      reply: { text: 'a long reply that will be cut off halfway through' },
    },
    { name: 'garbled', match: { user: /garble/ }, fault: { kind: 'malformed' }, reply: { text: 'never seen' } },
    {
      name: 'slow',
      match: { user: /take your time/ },
      fault: { kind: 'slow', ms: 300 },
      reply: { text: 'done slowly' },
    },
  ],
  default: { text: 'fine', usage: { input: 5, output: 1 } },
};

let server: MockLlmServer;
const client = (maxRetries = 0, timeout = 5000) =>
  new OpenAI({ apiKey: 'sk-x', baseURL: `${server.url}/v1`, maxRetries, timeout });
const ask = (content: string, o = client()) =>
  o.chat.completions.create({ model: 'm', messages: [{ role: 'user', content }] });

beforeAll(async () => {
  server = await startMockLlm({ script });
});
afterAll(async () => {
  await server.close();
});

describe('scripted faults', () => {
  it('429 carries retry-after and the SDK retries after it', async () => {
    const t0 = Date.now();
    const r = await ask('please rate-limit me', client(2));
    expect(r.choices[0]?.message.content).toBe('fine');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(180);
    const calls = server.requests.filter((q) => JSON.stringify(q.body).includes('rate-limit me'));
    expect(calls.map((c) => c.status)).toEqual([429, 200]);
  });

  it('500 surfaces as an API error with the status', async () => {
    await expect(ask('server error')).rejects.toMatchObject({ status: 500 });
    const anth = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    await expect(
      anth.messages.create({ model: 'c', max_tokens: 5, messages: [{ role: 'user', content: 'server error' }] }),
    ).rejects.toMatchObject({ status: 500, error: { type: 'error', error: { type: 'api_error' } } });
  });

  it('hang ends in a client timeout and is recorded as aborted', async () => {
    await expect(ask('hang up', client(0, 300))).rejects.toThrow(/timed out/i);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.requests.filter((q) => q.rule === 'hang').at(-1)?.outcome).toBe('client-aborted');
  });

  it('a truncated stream fails the SDK stream, in both OpenAI and Anthropic formats', async () => {
    const stream = await client().chat.completions.create({
      model: 'm',
      stream: true,
      messages: [{ role: 'user', content: 'cut stream' }],
    });
    await expect(
      (async () => {
        for await (const _ of stream) {
          /* drain */
        }
      })(),
    ).rejects.toThrow();
    const anth = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    await expect(
      anth.messages
        .stream({ model: 'c', max_tokens: 5, messages: [{ role: 'user', content: 'cut stream' }] })
        .finalMessage(),
    ).rejects.toThrow();
    expect(server.requests.filter((q) => q.rule === 'cut').every((q) => q.usage === null)).toBe(true);
  });

  it('a truncated non-streaming body fails the SDK', async () => {
    await expect(
      client().chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'cut stream' }] }),
    ).rejects.toThrow();
  });

  it('malformed JSON fails the SDK', async () => {
    await expect(ask('garble')).rejects.toThrow();
    const stream = await client().chat.completions.create({
      model: 'm',
      stream: true,
      messages: [{ role: 'user', content: 'garble' }],
    });
    await expect(
      (async () => {
        for await (const _ of stream) {
          /* drain */
        }
      })(),
    ).rejects.toThrow();
  });

  it('slow replies arrive after the delay', async () => {
    const t0 = Date.now();
    const r = await ask('take your time');
    expect(r.choices[0]?.message.content).toBe('done slowly');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
  });

  it('answers unmatched requests with an explicit 400 when there is no default', async () => {
    const strict = await startMockLlm({ script: { rules: [] } });
    const c = new OpenAI({ apiKey: 'k', baseURL: `${strict.url}/v1`, maxRetries: 0 });
    await expect(c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })).rejects.toThrow(
      /no script rule matched/,
    );
    expect(strict.requests[0]?.outcome).toBe('unmatched');
    await strict.close();
  });
});

describe('random faults', () => {
  const body = (i: number) => JSON.stringify({ model: 'm', messages: [{ role: 'user', content: `request ${i}` }] });
  async function statuses(seed: number): Promise<number[]> {
    const s = await startMockLlm({
      script: { rules: [], default: { text: 'ok' }, faults: { seed, rate: 0.3, kinds: ['429', '500'], retryAfter: 0 } },
    });
    const out = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        fetch(`${s.url}/v1/chat/completions`, { method: 'POST', body: body(i) }).then((r) => r.status),
      ),
    );
    await s.close();
    return out;
  }

  it('hit the configured rate, deterministically per seed whatever the arrival order', async () => {
    const a = await statuses(7);
    const b = await statuses(7);
    const c = await statuses(8);
    const faulted = a.filter((s) => s !== 200).length;
    expect(faulted).toBeGreaterThan(40);
    expect(faulted).toBeLessThan(80);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });
});
