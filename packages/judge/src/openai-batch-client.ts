// Judge turns through the OpenAI Batch API: the turns go up as one JSONL file of Chat Completions
// requests (bodies from buildChatParams, as live), the batch carries metadata.assay_key so a
// retried submission can find it, and results come back from the output and error files.
import type OpenAI from 'openai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { Batch } from 'openai/resources/batches';
import type { BatchClient, BatchClientOptions, BatchEntry, BatchResult, BatchStatus } from './batch-client.js';
import { toModelCallError } from './judge-model.js';
import { buildChatParams, chatReply } from './openai-chat-model.js';
import { toClientOptions } from './provider-options.js';

const ENDPOINT = '/v1/chat/completions';
const ENDED = new Set(['completed', 'expired', 'cancelled', 'failed']);

interface OutputLine {
  custom_id: string;
  response: { status_code: number; body: unknown } | null;
  error: { code?: string | null; message?: string | null } | null;
}

export function createOpenAiBatchClient(o: BatchClientOptions): BatchClient {
  // Loaded by the first call, as the live model does.
  let sdk: Promise<{ client: OpenAI; toFile: typeof import('openai').toFile }> | undefined;
  const sdkOf = () =>
    (sdk ??= import('openai').then((m) => ({ client: new m.default(toClientOptions(o)), toFile: m.toFile })));
  const call = async <T>(fn: (client: OpenAI) => Promise<T>): Promise<T> => {
    try {
      return await fn((await sdkOf()).client);
    } catch (err) {
      throw toModelCallError(err);
    }
  };
  return {
    provider: 'openai',
    // Metadata values take up to 512 characters: a longer key is refused by the API.
    async submit(entries, meta) {
      const jsonl = inputJsonl(o, entries);
      const { toFile } = await sdkOf();
      const upload = await toFile(
        Buffer.from(`${jsonl}\n`, 'utf8'),
        `assay-${meta.key.replace(/[^\w.-]+/g, '_')}.jsonl`,
        {
          type: 'application/jsonl',
        },
      );
      return call(async (client) => {
        const file = await client.files.create({ file: upload, purpose: 'batch' });
        const batch = await client.batches.create({
          input_file_id: file.id,
          endpoint: ENDPOINT,
          completion_window: '24h',
          metadata: { assay_key: meta.key },
        });
        return { batchId: batch.id };
      });
    },
    find: (key) =>
      call(async (client) => {
        let scanned = 0;
        // Newest first: a key submitted twice (before this check existed) resolves to the latest.
        for await (const b of client.batches.list({ limit: 100 })) {
          if (b.metadata?.assay_key === key) return { batchId: b.id };
          scanned += 1;
          if (scanned >= (o.findScanLimit ?? 1000)) break;
        }
        return null;
      }),
    poll: (batchId) => call(async (client) => statusOf(await client.batches.retrieve(batchId))),
    results: (batchId) =>
      call(async (client) => {
        const b = await client.batches.retrieve(batchId);
        const out = new Map<string, BatchResult>();
        for (const fileId of [b.output_file_id, b.error_file_id]) {
          if (!fileId) continue;
          const text = await (await client.files.content(fileId)).text();
          for (const row of text.split('\n')) {
            if (row.trim().length === 0) continue;
            const line = JSON.parse(row) as OutputLine;
            out.set(line.custom_id, toResult(line));
          }
        }
        return out;
      }),
    cancel: (batchId) =>
      call(async (client) => {
        await client.batches.cancel(batchId);
      }),
  };
}

/** The batch's input file: one Chat Completions request a line, its body as the live model builds it. */
function inputJsonl(o: BatchClientOptions, entries: readonly BatchEntry[]): string {
  return entries
    .map((e) =>
      JSON.stringify({ custom_id: e.customId, method: 'POST', url: ENDPOINT, body: buildChatParams(o, e.request) }),
    )
    .join('\n');
}

/** OpenAI's running counts split no failures: every one counts as errored until `results`. */
function statusOf(b: Batch): BatchStatus {
  const total = b.request_counts?.total ?? 0;
  const succeeded = b.request_counts?.completed ?? 0;
  const errored = b.request_counts?.failed ?? 0;
  const ended = ENDED.has(b.status);
  const processing = ended ? 0 : total - succeeded - errored;
  return {
    status: ended ? 'ended' : 'in_progress',
    counts: { total, succeeded, errored, expired: 0, canceled: 0, processing },
  };
}

function toResult(line: OutputLine): BatchResult {
  const r = line.response;
  if (r && r.status_code === 200) return chatReply(r.body as ChatCompletion);
  if (r) {
    const message = (r.body as { error?: { message?: string } } | null)?.error?.message ?? 'no message';
    return { kind: 'errored', error: `status ${r.status_code}: ${message}` };
  }
  const code = line.error?.code ?? '';
  const error = `${code}: ${line.error?.message ?? ''}`;
  if (code === 'batch_expired') return { kind: 'expired', error };
  if (code === 'batch_cancelled') return { kind: 'canceled', error };
  return { kind: 'errored', error };
}
