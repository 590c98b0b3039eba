// Anthropic Message Batches through the official SDK: create, poll on the server's clock, list,
// cancel, and results (succeeded, errored, expired, canceled) from results_url.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import type { MessageBatchIndividualResponse } from '@anthropic-ai/sdk/resources/messages/batches';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlmServer, type MockScript } from '../src/index.js';

const script: MockScript = {
  batch: { delayMs: 5_000 },
  rules: [
    { name: 'broken', match: { user: /^fail/ }, fault: { kind: '500' } },
    { name: 'stuck', match: { user: /^stuck/ }, fault: { kind: 'hang' } },
    { name: 'answer', match: { user: /^Q(?<n>\d+)/ }, reply: { text: 'A{{n}}' } },
  ],
};

let clock = 1_700_000_000_000;
let server: MockLlmServer;
let anthropic: Anthropic;

beforeAll(async () => {
  server = await startMockLlm({ script, now: () => clock });
  anthropic = new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, maxRetries: 0 });
});
afterAll(() => server.close());
beforeEach(() => {
  server.setScript(script);
  server.clearRecords();
  server.promptCache.clear();
});

const submit = (users: string[]) =>
  anthropic.messages.batches.create({
    requests: users.map((u, i) => ({
      custom_id: `r${i}`,
      params: { model: 'claude-x', max_tokens: 100, messages: [{ role: 'user' as const, content: u }] },
    })),
  });

async function results(id: string): Promise<MessageBatchIndividualResponse[]> {
  const out: MessageBatchIndividualResponse[] = [];
  for await (const r of await anthropic.messages.batches.results(id)) out.push(r);
  return out;
}

describe('Anthropic message batches', () => {
  it('is in_progress, then ended with each request answered as a live call would be', async () => {
    const created = await submit(['Q1', 'Q2']);
    expect(created).toMatchObject({ type: 'message_batch', processing_status: 'in_progress', results_url: null });
    expect(created.request_counts).toMatchObject({ processing: 2, succeeded: 0 });
    clock += 4_999;
    expect((await anthropic.messages.batches.retrieve(created.id)).processing_status).toBe('in_progress');
    clock += 1;
    const done = await anthropic.messages.batches.retrieve(created.id);
    expect(done.processing_status).toBe('ended');
    expect(done.request_counts).toEqual({ processing: 0, succeeded: 2, errored: 0, canceled: 0, expired: 0 });
    expect(done.results_url).toBe(`${server.url}/v1/messages/batches/${created.id}/results`);
    const rs = await results(created.id);
    expect(rs.map((r) => r.custom_id)).toEqual(['r0', 'r1']);
    const first = rs[0]?.result;
    expect(first?.type).toBe('succeeded');
    if (first?.type !== 'succeeded') return;
    expect(first.message.content).toEqual([{ type: 'text', text: 'A1' }]);
    // Usage is the prompt cache's accounting, as for a live call of the same body.
    const live = await anthropic.messages.create({
      model: 'claude-x',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Q1' }],
    });
    expect(live.usage).toEqual(first.message.usage);
    expect(server.batches).toHaveLength(1);
  });

  it('maps script faults to errored and expired results', async () => {
    const created = await submit(['Q1', 'fail', 'stuck']);
    clock += 5_000;
    const done = await anthropic.messages.batches.retrieve(created.id);
    expect(done.request_counts).toEqual({ processing: 0, succeeded: 1, errored: 1, canceled: 0, expired: 1 });
    const rs = await results(created.id);
    expect(rs[1]?.result).toMatchObject({ type: 'errored', error: { type: 'error', error: { type: 'api_error' } } });
    expect(rs[2]?.result).toEqual({ type: 'expired' });
  });

  it('cancels, and refuses results before the end', async () => {
    const created = await submit(['Q1']);
    await expect(results(created.id)).rejects.toThrow(/results_url/);
    expect((await anthropic.messages.batches.cancel(created.id)).processing_status).toBe('canceling');
    const done = await anthropic.messages.batches.retrieve(created.id);
    expect(done.processing_status).toBe('ended');
    expect(done.cancel_initiated_at).not.toBeNull();
    expect(await results(created.id)).toEqual([{ custom_id: 'r0', result: { type: 'canceled' } }]);
  });

  it('lists newest first and validates custom ids', async () => {
    const a = await submit(['Q1']);
    const b = await submit(['Q2']);
    const page = await anthropic.messages.batches.list({ limit: 1 });
    expect(page.data.map((x) => x.id)).toEqual([b.id]);
    const next = await anthropic.messages.batches.list({ limit: 1, after_id: b.id });
    expect(next.data.map((x) => x.id)).toEqual([a.id]);
    await expect(
      anthropic.messages.batches.create({
        requests: [{ custom_id: 'bad id!', params: { model: 'm', max_tokens: 1, messages: [] } }],
      }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('keeps batches across a server restart only with a state file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mock-llm-batches-')), 'batches.json');
    const first = await startMockLlm({ script, now: () => clock, batchStateFile: file });
    const client = (url: string) => new Anthropic({ apiKey: 'sk-ant-test', baseURL: url, maxRetries: 0 });
    const created = await client(first.url).messages.batches.create({
      requests: [
        { custom_id: 'r0', params: { model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content: 'Q7' }] } },
      ],
    });
    await first.close();
    const restarted = await startMockLlm({ script, now: () => clock, batchStateFile: file });
    const forgetful = await startMockLlm({ script, now: () => clock });
    try {
      await expect(client(forgetful.url).messages.batches.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
      const again = client(restarted.url);
      expect((await again.messages.batches.retrieve(created.id)).processing_status).toBe('in_progress');
      clock += 5_000;
      const rs: MessageBatchIndividualResponse[] = [];
      for await (const r of await again.messages.batches.results(created.id)) rs.push(r);
      expect(rs[0]?.result).toMatchObject({ type: 'succeeded', message: { content: [{ type: 'text', text: 'A7' }] } });
    } finally {
      await restarted.close();
      await forgetful.close();
    }
  });
});
