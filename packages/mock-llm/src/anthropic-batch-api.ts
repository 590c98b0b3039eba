// Anthropic Message Batches API: create a batch of Messages requests, read, list and cancel it,
// and stream its results as JSONL from its results_url.
import type { BatchLineOutcome } from './answer-batch-request.js';
import type { BatchLine, BatchPhase, StoredBatch } from './batch-store.js';
import type { Exchange } from './exchange.js';
import type { ServerState } from './server-state.js';
import { anthropicError } from './wire/anthropic.js';

const DAY_MS = 24 * 3600 * 1000;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;

/** `origin`: the server's URL and the request's path prefix (e.g. /v1), which results_url starts with. */
export async function answerAnthropicBatchApi(
  server: ServerState,
  ex: Exchange,
  method: string,
  rest: string[],
  query: URLSearchParams,
  raw: string,
  origin: string,
): Promise<void> {
  const store = server.batches;
  const [id, action] = rest;
  if (method === 'POST' && id === undefined) return createBatch(server, ex, raw, origin);
  if (method === 'GET' && id === undefined) {
    const all = store.list('anthropic');
    const afterId = query.get('after_id');
    const start = afterId ? all.findIndex((b) => b.id === afterId) + 1 : 0;
    const limit = Math.min(1000, Math.max(1, Number(query.get('limit') ?? 20) || 20));
    const page = all.slice(start, start + limit);
    const data = await Promise.all(page.map(async (b) => render(b, await store.settle(server, b), origin)));
    ex.sendJson(200, {
      data,
      has_more: start + limit < all.length,
      first_id: page[0]?.id ?? null,
      last_id: page.at(-1)?.id ?? null,
    });
    return ex.finish(200, 'ok');
  }
  const batch = id === undefined ? undefined : store.batches.get(id);
  if (!batch || batch.provider !== 'anthropic') {
    ex.sendJson(404, anthropicError(404, `message_batch ${id ?? ''} not found`));
    return ex.finish(404, 'not-found');
  }
  if (method === 'POST' && action === 'cancel') {
    store.cancel(server, batch);
    ex.sendJson(200, render(batch, await store.settle(server, batch, true), origin));
    return ex.finish(200, 'ok');
  }
  if (method === 'GET' && action === undefined) {
    ex.sendJson(200, render(batch, await store.settle(server, batch), origin));
    return ex.finish(200, 'ok');
  }
  if (method === 'GET' && action === 'results') {
    if ((await store.settle(server, batch)) !== 'ended' || !batch.outcomes) {
      ex.sendJson(400, anthropicError(400, `Message Batch ${batch.id} has not yet ended; results are not available.`));
      return ex.finish(400, 'bad-request');
    }
    const outcomes = batch.outcomes;
    const text = batch.lines
      .map((l, i) => JSON.stringify(resultLine(l, outcomes[i] ?? { kind: 'canceled' })))
      .join('\n');
    ex.res.writeHead(200, { ...ex.jsonHeaders(), 'content-type': 'application/binary' });
    ex.res.end(`${text}\n`);
    return ex.finish(200, 'ok');
  }
  ex.sendJson(404, anthropicError(404, `No such endpoint ${method} ${ex.rec.path}`));
  return ex.finish(404, 'not-found');
}

function createBatch(server: ServerState, ex: Exchange, raw: string, origin: string): void {
  const invalid = (message: string) => {
    ex.sendJson(400, anthropicError(400, message));
    ex.finish(400, 'bad-request');
  };
  let body: { requests?: unknown };
  try {
    body = JSON.parse(raw) as { requests?: unknown };
  } catch (err) {
    return invalid(`Invalid JSON body: ${(err as Error).message}`);
  }
  ex.rec.body = body;
  if (!Array.isArray(body.requests) || body.requests.length === 0) return invalid('requests: Field required');
  const lines: BatchLine[] = [];
  const seen = new Set<string>();
  for (const [i, r] of (body.requests as { custom_id?: unknown; params?: unknown }[]).entries()) {
    const customId = r.custom_id;
    if (typeof customId !== 'string' || !CUSTOM_ID.test(customId))
      return invalid(`requests.${i}.custom_id: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
    if (seen.has(customId)) return invalid(`Duplicate custom_id ${customId}`);
    seen.add(customId);
    if (typeof r.params !== 'object' || r.params === null) return invalid(`requests.${i}.params: Field required`);
    if ((r.params as { stream?: unknown }).stream === true)
      return invalid(`requests.${i}.params.stream: streaming is not supported in batches`);
    lines.push({ customId, api: 'anthropic', body: r.params as Record<string, unknown> });
  }
  const batch = server.batches.create(server, {
    provider: 'anthropic',
    lines,
    metadata: null,
    inputFileId: '',
    endpoint: '/v1/messages',
    failure: null,
  });
  ex.sendJson(200, render(batch, 'in_progress', origin));
  ex.finish(200, 'ok');
}

function render(batch: StoredBatch, phase: BatchPhase, origin: string): unknown {
  const outcomes = batch.outcomes ?? [];
  const count = (kind: BatchLineOutcome['kind']) => outcomes.filter((o) => o.kind === kind).length;
  const ended = phase === 'ended';
  return {
    id: batch.id,
    type: 'message_batch',
    processing_status: phase === 'cancelling' ? 'canceling' : phase,
    request_counts: {
      processing: ended ? 0 : batch.lines.length,
      succeeded: count('succeeded'),
      errored: count('errored'),
      canceled: count('canceled'),
      expired: count('expired'),
    },
    ended_at: ended ? iso(batch.endedAt) : null,
    created_at: iso(batch.createdAt),
    expires_at: iso(batch.createdAt + DAY_MS),
    archived_at: null,
    cancel_initiated_at: iso(batch.cancelledAt),
    results_url: ended ? `${origin}/messages/batches/${batch.id}/results` : null,
  };
}

function resultLine(line: BatchLine, o: BatchLineOutcome): unknown {
  if (o.kind === 'succeeded') return { custom_id: line.customId, result: { type: 'succeeded', message: o.body } };
  if (o.kind === 'errored')
    return {
      custom_id: line.customId,
      result: { type: 'errored', error: { ...(o.body as object), request_id: null } },
    };
  return { custom_id: line.customId, result: { type: o.kind } };
}
