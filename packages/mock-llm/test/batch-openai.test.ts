// The OpenAI Files + Batch API through the official SDK: upload, create, poll on the server's
// clock, list, cancel, and the output and error files.
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlmServer, type MockScript } from '../src/index.js';

const script: MockScript = {
  batch: { delayMs: 60_000 },
  rules: [
    { name: 'rate', match: { user: /^fail/ }, fault: { kind: '429' } },
    { name: 'stuck', match: { user: /^stuck/ }, fault: { kind: 'hang' } },
    { name: 'answer', match: { user: /^Q(?<n>\d+)/ }, reply: { text: 'A{{n}}', usage: { input: 10, output: 2 } } },
  ],
};

let clock = 1_700_000_000_000;
let server: MockLlmServer;
let openai: OpenAI;

beforeAll(async () => {
  server = await startMockLlm({ script, now: () => clock });
  openai = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
});
afterAll(() => server.close());
beforeEach(() => {
  server.setScript(script);
  server.clearRecords();
});

async function submit(users: string[], key: string) {
  const jsonl = users
    .map((u, i) =>
      JSON.stringify({
        custom_id: `r${i}`,
        method: 'POST',
        url: '/v1/chat/completions',
        body: { model: 'gpt-x', messages: [{ role: 'user', content: u }] },
      }),
    )
    .join('\n');
  const file = await openai.files.create({ file: await toFile(Buffer.from(jsonl), 'in.jsonl'), purpose: 'batch' });
  expect(file).toMatchObject({ object: 'file', purpose: 'batch', filename: 'in.jsonl' });
  return openai.batches.create({
    input_file_id: file.id,
    endpoint: '/v1/chat/completions',
    completion_window: '24h',
    metadata: { assay_key: key },
  });
}

async function lines(fileId: string | null | undefined): Promise<Record<string, unknown>[]> {
  if (!fileId) return [];
  const text = await (await openai.files.content(fileId)).text();
  return text
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('OpenAI batches', () => {
  it('moves validating → in_progress → completed and answers each line by the script', async () => {
    const created = await submit(['Q1', 'Q2', 'Q3'], 'k1');
    expect(created.status).toBe('validating');
    expect(created.metadata).toEqual({ assay_key: 'k1' });
    expect((await openai.batches.retrieve(created.id)).status).toBe('in_progress');
    expect(server.modelCalls()).toHaveLength(0);
    clock += 60_000;
    const done = await openai.batches.retrieve(created.id);
    expect(done.status).toBe('completed');
    expect(done.request_counts).toEqual({ total: 3, completed: 3, failed: 0 });
    expect(done.error_file_id).toBeNull();
    const out = await lines(done.output_file_id);
    expect(out.map((l) => l.custom_id)).toEqual(['r0', 'r1', 'r2']);
    const first = out[0] as { response: { status_code: number; body: OpenAI.ChatCompletion } };
    expect(first.response.status_code).toBe(200);
    expect(first.response.body.choices[0]?.message.content).toBe('A1');
    expect(first.response.body.usage?.prompt_tokens).toBe(10);
    // Each line is a recorded model call, so usage adds up as for live calls; one batch recorded.
    expect(server.modelCalls('openai-chat').map((r) => r.method)).toEqual(['BATCH', 'BATCH', 'BATCH']);
    expect(server.totalUsage()).toMatchObject({ input: 30, output: 6 });
    expect(server.batches).toMatchObject([
      { id: created.id, provider: 'openai', requests: 3, metadata: { assay_key: 'k1' } },
    ]);
  });

  it('puts failed and expired lines in the error file; an expired line makes the batch expired', async () => {
    const created = await submit(['Q1', 'fail now', 'stuck here'], 'k2');
    clock += 60_000;
    const done = await openai.batches.retrieve(created.id);
    expect(done.status).toBe('expired');
    expect(done.request_counts).toEqual({ total: 3, completed: 1, failed: 2 });
    expect((await lines(done.output_file_id)).map((l) => l.custom_id)).toEqual(['r0']);
    const errors = await lines(done.error_file_id);
    expect(errors[0]).toMatchObject({ custom_id: 'r1', response: { status_code: 429 }, error: null });
    expect(errors[1]).toMatchObject({ custom_id: 'r2', response: null, error: { code: 'batch_expired' } });
  });

  it('expires a whole batch when the script says so', async () => {
    server.setScript({ ...script, batch: { delayMs: 10, expire: true } });
    const created = await submit(['Q1', 'Q2'], 'k3');
    clock += 10;
    const done = await openai.batches.retrieve(created.id);
    expect(done.status).toBe('expired');
    expect(done.output_file_id).toBeNull();
    expect((await lines(done.error_file_id)).map((l) => (l.error as { code: string }).code)).toEqual([
      'batch_expired',
      'batch_expired',
    ]);
    expect(server.modelCalls()).toHaveLength(0);
  });

  it('cancels: cancelling, then cancelled with every line cancelled and nothing run', async () => {
    const created = await submit(['Q1', 'Q2'], 'k4');
    expect((await openai.batches.cancel(created.id)).status).toBe('cancelling');
    const done = await openai.batches.retrieve(created.id);
    expect(done.status).toBe('cancelled');
    expect((await lines(done.error_file_id)).map((l) => (l.error as { code: string }).code)).toEqual([
      'batch_cancelled',
      'batch_cancelled',
    ]);
    expect(server.modelCalls()).toHaveLength(0);
  });

  it('lists newest first with after/limit, and fails a batch whose input does not validate', async () => {
    const a = await submit(['Q1'], 'la');
    const b = await submit(['Q2'], 'lb');
    const page = await openai.batches.list({ limit: 1 });
    expect(page.data.map((x) => x.id)).toEqual([b.id]);
    expect(page.has_more).toBe(true);
    const next = await openai.batches.list({ limit: 1, after: b.id });
    expect(next.data.map((x) => x.id)).toEqual([a.id]);
    const bad = await openai.files.create({
      file: await toFile(Buffer.from('{"x":1}\n'), 'bad.jsonl'),
      purpose: 'batch',
    });
    const failed = await openai.batches.create({
      input_file_id: bad.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
    });
    const seen = await openai.batches.retrieve(failed.id);
    expect(seen.status).toBe('failed');
    expect(seen.errors?.data?.[0]).toMatchObject({ code: 'missing_required_parameter', line: 1 });
  });

  it('answers 404 for an unknown batch', async () => {
    await expect(openai.batches.retrieve('batch_nope')).rejects.toMatchObject({ status: 404 });
  });
});
