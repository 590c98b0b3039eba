// The judge's batch client over both providers' batch APIs, against the scripted server through
// the real SDKs: batched turns are the live turns (same bodies, same replies), results map back by
// custom id, a key finds its batch, failures keep their kind, polling and cancel.
import { startMockLlm, type MockLlmServer, type MockScript, type RecordedRequest } from '@assay/mock-llm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicModel } from '../src/anthropic-model.js';
import { createBatchClient, isBatchFailure, type BatchClientOptions, type BatchEntry } from '../src/batch-client.js';
import type { JudgeModel, ModelRequest } from '../src/judge-model.js';
import { createOpenAiChatModel } from '../src/openai-chat-model.js';

const script: MockScript = {
  batch: { delayMs: 1_000 },
  rules: [
    { name: 'broken', match: { user: /^ITEM err/ }, fault: { kind: '500' } },
    { name: 'stuck', match: { user: /^ITEM late/ }, fault: { kind: 'hang' } },
    {
      name: 'verdict',
      match: { user: /^ITEM (?<id>\S+):/ },
      reply: {
        text: 'Checked {{id}}.',
        toolCalls: [{ name: 'submit_verdict', arguments: { itemId: '{{id}}', decision: 'satisfied' } }],
      },
    },
  ],
};

// Long enough for the prompt cache to take part (1024 tokens at 4 characters each).
const SYSTEM = `You are an expert evaluator. ${'Judge each item against the evidence. '.repeat(120)}`;

function turn(id: string): ModelRequest {
  return {
    system: SYSTEM,
    turns: [{ role: 'user', text: `ITEM ${id}: the memo states the revenue growth.` }],
    tools: [
      {
        name: 'submit_verdict',
        description: 'Submit the verdict.',
        parameters: { type: 'object', properties: { itemId: { type: 'string' }, decision: { type: 'string' } } },
      },
    ],
  };
}

let clock = 1_700_000_000_000;
let server: MockLlmServer;
beforeAll(async () => {
  server = await startMockLlm({ script, now: () => clock });
});
afterAll(() => server.close());
beforeEach(() => {
  server.setScript(script);
  server.clearRecords();
  server.promptCache.clear();
});

describe.each(['openai', 'anthropic'] as const)('batch client over %s', (provider) => {
  const options = (): BatchClientOptions => ({
    provider,
    model: 'judge-x',
    apiKey: 'sk-batch-test',
    baseUrl: provider === 'openai' ? `${server.url}/v1` : server.url,
    temperature: 0,
    seed: null,
    timeoutMs: 10_000,
    transportRetries: 0,
    maxOutputTokens: 1024,
    promptCache: true,
  });
  const live = (): JudgeModel =>
    provider === 'openai' ? createOpenAiChatModel(options()) : createAnthropicModel(options());
  const api = provider === 'openai' ? 'openai-chat' : 'anthropic';
  const bodies = (method: string) =>
    server
      .modelCalls(api)
      .filter((r: RecordedRequest) => r.method === method)
      .map((r) => JSON.stringify(r.body));

  it('answers N turns as the same turns live, byte for byte, mapped back by custom id', async () => {
    const ids = ['c1', 'c2', 'c3', 'c4'];
    const model = live();
    const liveReplies = [];
    for (const id of ids) liveReplies.push(await model.complete(turn(id)));
    const liveBodies = bodies('POST');
    // The same server state the live turns met: fresh rule counters and an empty prompt cache.
    server.setScript(script);
    server.promptCache.clear();
    const client = createBatchClient(options());
    // Custom ids whose order is not the turns' order: results come back by custom id, not by position.
    const customIds = ['zeta', 'alpha', 'mu', 'beta'];
    const entries: BatchEntry[] = ids.map((id, i) => ({ customId: customIds[i] ?? id, request: turn(id) }));
    const { batchId } = await client.submit(entries, { key: `same-${provider}` });
    clock += 1_000;
    expect((await client.poll(batchId)).status).toBe('ended');
    const results = await client.results(batchId);
    expect(results.size).toBe(ids.length);
    // Usage included: the server's prompt cache saw the same prompts in the same order.
    for (const [i, id] of customIds.entries()) expect(results.get(id)).toEqual(liveReplies[i]);
    // Submitted in reverse, the same replies map back (usage aside: which turn reads the cache changes;
    // fresh rule counters, else the server sees a repeat of each conversation and varies tool-call ids).
    server.setScript(script);
    const reversed = await client.submit([...entries].reverse(), { key: `reversed-${provider}` });
    clock += 1_000;
    const again = await client.results(reversed.batchId);
    for (const [i, id] of customIds.entries())
      expect({ ...again.get(id), usage: null }).toEqual({ ...liveReplies[i], usage: null });
    expect(liveReplies[0]?.toolCalls[0]?.arguments).toContain('"itemId":"c1"');
    expect(bodies('BATCH').slice(0, ids.length)).toEqual(liveBodies);
  });

  it('polls in_progress then ended with counts', async () => {
    const client = createBatchClient(options());
    const { batchId } = await client.submit([{ customId: 'p1', request: turn('p1') }], { key: `poll-${provider}` });
    const first = await client.poll(batchId);
    expect(first).toEqual({
      status: 'in_progress',
      counts: { total: 1, processing: 1, succeeded: 0, errored: 0, expired: 0, canceled: 0 },
    });
    clock += 1_000;
    const end = await client.poll(batchId);
    expect(end.status).toBe('ended');
    expect(end.counts).toMatchObject({ total: 1, processing: 0, succeeded: 1 });
  });

  it('maps a partly failed batch: errored, expired and answered turns', async () => {
    const client = createBatchClient(options());
    const entries = ['ok1', 'err1', 'late1', 'ok2'].map((id) => ({ customId: id, request: turn(id) }));
    const { batchId } = await client.submit(entries, { key: `partial-${provider}` });
    clock += 1_000;
    const results = await client.results(batchId);
    const kinds = Object.fromEntries(
      [...results].map(([id, r]) => [id, isBatchFailure(r) ? r.kind : `reply:${r.toolCalls.length}`]),
    );
    expect(kinds).toEqual({ ok1: 'reply:1', err1: 'errored', late1: 'expired', ok2: 'reply:1' });
    const err = results.get('err1');
    expect(err && isBatchFailure(err) ? err.error : '').toMatch(/500|api_error/);
  });

  it('cancels: every turn canceled, none run', async () => {
    const client = createBatchClient(options());
    const { batchId } = await client.submit([{ customId: 'x1', request: turn('x1') }], { key: `cancel-${provider}` });
    await client.cancel(batchId);
    expect((await client.poll(batchId)).status).toBe('ended');
    const got = (await client.results(batchId)).get('x1');
    expect(got && isBatchFailure(got) ? got.kind : 'reply').toBe('canceled');
    expect(server.modelCalls(api)).toHaveLength(0);
  });
});

describe('find(key)', () => {
  it('OpenAI: a retried submission finds its batch; only one is created', async () => {
    const client = createBatchClient({
      provider: 'openai',
      model: 'judge-x',
      apiKey: 'sk-batch-test',
      baseUrl: `${server.url}/v1`,
      temperature: 0,
      seed: null,
      timeoutMs: 10_000,
      transportRetries: 0,
      maxOutputTokens: 1024,
      promptCache: true,
    });
    const entries = [{ customId: 'f1', request: turn('f1') }];
    // What an activity does on each attempt: look for the key, submit only when nothing is found.
    const attempt = async () =>
      (await client.find('job-7/sub-3')) ?? (await client.submit(entries, { key: 'job-7/sub-3' }));
    const first = await attempt();
    await client.submit([{ customId: 'o1', request: turn('o1') }], { key: 'another' });
    const second = await attempt();
    expect(second.batchId).toBe(first.batchId);
    expect(server.batches.filter((b) => b.metadata?.assay_key === 'job-7/sub-3')).toHaveLength(1);
    expect(await client.find('never-submitted')).toBeNull();
  });

  it('Anthropic: has no batch metadata, so find returns null (the caller stores the batch id)', async () => {
    const client = createBatchClient({
      provider: 'anthropic',
      model: 'judge-x',
      apiKey: 'sk-batch-test',
      baseUrl: server.url,
      temperature: 0,
      seed: null,
      timeoutMs: 10_000,
      transportRetries: 0,
      maxOutputTokens: 1024,
      promptCache: true,
    });
    await client.submit([{ customId: 'a1', request: turn('a1') }], { key: 'k' });
    expect(await client.find('k')).toBeNull();
    expect(server.batches).toHaveLength(1);
  });
});
