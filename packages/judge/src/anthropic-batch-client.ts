// Judge turns through Anthropic's Message Batches API: each turn is one request whose params come
// from buildAnthropicParams (as live), and each result's message is parsed by anthropicReply.
// Anthropic batches carry no metadata and requests are readable only once a batch ends, so
// `find` cannot recognise an in-progress batch: it returns null, and the caller must store the
// batch id durably (e.g. in workflow state) as soon as `submit` returns, before anything else.
import type Anthropic from '@anthropic-ai/sdk';
import { anthropicReply, buildAnthropicParams } from './anthropic-model.js';
import type { BatchClient, BatchClientOptions, BatchResult } from './batch-client.js';
import { toModelCallError } from './judge-model.js';
import { toClientOptions } from './provider-options.js';

export function createAnthropicBatchClient(o: BatchClientOptions): BatchClient {
  let client: Promise<Anthropic> | undefined;
  const clientOf = (): Promise<Anthropic> =>
    (client ??= import('@anthropic-ai/sdk').then(({ default: Sdk }) => new Sdk(toClientOptions(o))));
  const call = async <T>(fn: (client: Anthropic) => Promise<T>): Promise<T> => {
    try {
      return await fn(await clientOf());
    } catch (err) {
      throw toModelCallError(err);
    }
  };
  return {
    provider: 'anthropic',
    submit: (entries) =>
      call(async (c) => {
        const requests = entries.map((e) => ({ custom_id: e.customId, params: buildAnthropicParams(o, e.request) }));
        const batch = await c.messages.batches.create({ requests });
        return { batchId: batch.id };
      }),
    find: () => Promise.resolve(null),
    poll: (batchId) =>
      call(async (c) => {
        const b = await c.messages.batches.retrieve(batchId);
        const n = b.request_counts;
        const total = n.processing + n.succeeded + n.errored + n.expired + n.canceled;
        return {
          status: b.processing_status === 'ended' ? 'ended' : 'in_progress',
          counts: { total, ...n },
        };
      }),
    results: (batchId) =>
      call(async (c) => {
        const out = new Map<string, BatchResult>();
        for await (const line of await c.messages.batches.results(batchId)) {
          const r = line.result;
          if (r.type === 'succeeded') out.set(line.custom_id, anthropicReply(r.message));
          else if (r.type === 'errored')
            out.set(line.custom_id, { kind: 'errored', error: `${r.error.error.type}: ${r.error.error.message}` });
          else out.set(line.custom_id, { kind: r.type, error: r.type });
        }
        return out;
      }),
    cancel: (batchId) =>
      call(async (c) => {
        await c.messages.batches.cancel(batchId);
      }),
  };
}
