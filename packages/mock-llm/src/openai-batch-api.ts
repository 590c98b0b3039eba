// OpenAI Files + Batch API: upload a JSONL input file (multipart), create a batch over it, read,
// list and cancel batches, and download the output and error files it produces.
import type { BatchLineOutcome } from './answer-batch-request.js';
import type { BatchLine, BatchPhase, StoredBatch } from './batch-store.js';
import type { Exchange } from './exchange.js';
import type { ServerState } from './server-state.js';
import { chatError } from './wire/openai-chat.js';

const secs = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));
const DAY_MS = 24 * 3600 * 1000;

export async function answerOpenAiBatchApi(
  server: ServerState,
  ex: Exchange,
  method: string,
  rest: string[],
  query: URLSearchParams,
  raw: string,
): Promise<void> {
  const store = server.batches;
  const [kind, id, action] = rest;
  if (kind === 'files' && method === 'POST' && id === undefined) return uploadFile(server, ex, raw);
  if (kind === 'files' && method === 'GET' && id !== undefined && action === 'content') {
    const file = store.files.get(id);
    if (!file) return notFound(ex, `No such File object: ${id}`);
    ex.res.writeHead(200, { ...ex.jsonHeaders(), 'content-type': 'application/octet-stream' });
    ex.res.end(file.text);
    return ex.finish(200, 'ok');
  }
  if (kind === 'files' && method === 'GET' && id !== undefined && action === undefined) {
    const file = store.files.get(id);
    if (!file) return notFound(ex, `No such File object: ${id}`);
    ex.sendJson(200, renderFile(file.id, file.filename, file.purpose, file.text, file.createdAt));
    return ex.finish(200, 'ok');
  }
  if (kind !== 'batches') return notFound(ex, `No such endpoint ${method} ${ex.rec.path}`);
  if (method === 'POST' && id === undefined) return createBatch(server, ex, raw);
  if (method === 'GET' && id === undefined) {
    const all = store.list('openai');
    const after = query.get('after');
    const start = after ? all.findIndex((b) => b.id === after) + 1 : 0;
    const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? 20) || 20));
    const page = all.slice(start, start + limit);
    const data = await Promise.all(page.map(async (b) => renderBatch(b, await settleOpenAi(server, b))));
    ex.sendJson(200, {
      object: 'list',
      data,
      first_id: page[0]?.id ?? null,
      last_id: page.at(-1)?.id ?? null,
      has_more: start + limit < all.length,
    });
    return ex.finish(200, 'ok');
  }
  const batch = id === undefined ? undefined : store.batches.get(id);
  if (!batch || batch.provider !== 'openai') return notFound(ex, `No batch found with id '${id ?? ''}'.`);
  if (method === 'POST' && action === 'cancel') {
    store.cancel(server, batch);
    ex.sendJson(200, renderBatch(batch, await settleOpenAi(server, batch, true)));
    return ex.finish(200, 'ok');
  }
  if (method === 'GET' && action === undefined) {
    ex.sendJson(200, renderBatch(batch, await settleOpenAi(server, batch)));
    return ex.finish(200, 'ok');
  }
  return notFound(ex, `No such endpoint ${method} ${ex.rec.path}`);
}

function notFound(ex: Exchange, message: string): void {
  ex.sendJson(404, { error: { message, type: 'invalid_request_error', param: null, code: null } });
  ex.finish(404, 'not-found');
}

function badRequest(ex: Exchange, message: string): void {
  ex.sendJson(400, chatError(400, message));
  ex.finish(400, 'bad-request');
}

/** A multipart/form-data body's fields: name → text (a file part's filename kept too). */
function parseMultipart(raw: string, contentType: string): Map<string, { text: string; filename?: string }> {
  const fields = new Map<string, { text: string; filename?: string }>();
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
  if (!boundary) return fields;
  for (const part of raw.split(`--${boundary}`)) {
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const head = part.slice(0, split);
    const name = /name="([^"]*)"/.exec(head)?.[1];
    if (name === undefined) continue;
    const filename = /filename="([^"]*)"/.exec(head)?.[1];
    fields.set(name, { text: part.slice(split + 4).replace(/\r\n$/, ''), ...(filename ? { filename } : {}) });
  }
  return fields;
}

function uploadFile(server: ServerState, ex: Exchange, raw: string): void {
  const fields = parseMultipart(raw, ex.rec.headers['content-type'] ?? '');
  const file = fields.get('file');
  const purpose = fields.get('purpose')?.text;
  if (!file || !purpose) return badRequest(ex, "Missing required parameter: 'file' and 'purpose'.");
  const stored = server.batches.addFile(server, file.filename ?? 'upload.jsonl', purpose, file.text);
  ex.sendJson(200, renderFile(stored.id, stored.filename, purpose, stored.text, stored.createdAt));
  ex.finish(200, 'ok');
}

function renderFile(id: string, filename: string, purpose: string, text: string, createdAt: number): unknown {
  const bytes = Buffer.byteLength(text);
  return { id, object: 'file', bytes, created_at: secs(createdAt), filename, purpose, status: 'processed' };
}

function createBatch(server: ServerState, ex: Exchange, raw: string): void {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(raw) as Record<string, unknown>;
  } catch (err) {
    return badRequest(ex, `Invalid JSON body: ${(err as Error).message}`);
  }
  ex.rec.body = body;
  const inputFileId = String(body.input_file_id ?? '');
  const endpoint = String(body.endpoint ?? '');
  const file = server.batches.files.get(inputFileId);
  if (!file) return badRequest(ex, `Invalid 'input_file_id': '${inputFileId}'. File does not exist.`);
  if (body.completion_window !== '24h') return badRequest(ex, "Invalid 'completion_window': only '24h' is supported.");
  const { lines, failure } = parseInputFile(file.text, endpoint);
  const metadata = (body.metadata ?? null) as Record<string, string> | null;
  const batch = server.batches.create(server, { provider: 'openai', lines, metadata, inputFileId, endpoint, failure });
  ex.sendJson(200, { ...(renderBatch(batch, 'in_progress') as object), status: 'validating', in_progress_at: null });
  ex.finish(200, 'ok');
}

/** The input JSONL's requests, or why it does not validate (then the batch fails and runs nothing). */
function parseInputFile(text: string, endpoint: string): { lines: BatchLine[]; failure: StoredBatch['failure'] } {
  const lines: BatchLine[] = [];
  const seen = new Set<string>();
  const fail = (line: number, code: string, message: string) => ({ lines: [], failure: { code, message, line } });
  if (endpoint !== '/v1/chat/completions')
    return {
      lines: [],
      failure: { code: 'invalid_endpoint', message: `mock-llm batches take /v1/chat/completions only`, line: null },
    };
  for (const [i, row] of text.split('\n').entries()) {
    if (row.trim().length === 0) continue;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(row) as Record<string, unknown>;
    } catch {
      return fail(i + 1, 'invalid_json_line', 'This line is not parseable as valid JSON.');
    }
    const customId = o.custom_id;
    if (typeof customId !== 'string' || customId.length === 0)
      return fail(i + 1, 'missing_required_parameter', "Missing required parameter: 'custom_id'.");
    if (seen.has(customId)) return fail(i + 1, 'duplicate_custom_id', `The custom_id '${customId}' is a duplicate.`);
    seen.add(customId);
    if (o.url !== endpoint) return fail(i + 1, 'mismatched_endpoint', `The url does not match the batch's endpoint.`);
    if (typeof o.body !== 'object' || o.body === null)
      return fail(i + 1, 'missing_required_parameter', "Missing required parameter: 'body'.");
    lines.push({ customId, api: 'openai-chat', body: o.body as Record<string, unknown> });
  }
  if (lines.length === 0)
    return { lines, failure: { code: 'empty_file', message: 'The input file is empty.', line: null } };
  return { lines, failure: null };
}

function openAiStatus(batch: StoredBatch, phase: BatchPhase): string {
  if (phase === 'in_progress') return 'in_progress';
  if (phase === 'cancelling') return 'cancelling';
  if (batch.failure) return 'failed';
  if (batch.cancelledAt !== null) return 'cancelled';
  return batch.outcomes?.some((o) => o.kind === 'expired') ? 'expired' : 'completed';
}

function renderBatch(batch: StoredBatch, phase: BatchPhase): unknown {
  const status = openAiStatus(batch, phase);
  const outcomes = batch.outcomes ?? [];
  const completed = outcomes.filter((o) => o.kind === 'succeeded').length;
  const ended = batch.endedAt;
  return {
    id: batch.id,
    object: 'batch',
    endpoint: batch.endpoint,
    errors: batch.failure ? { object: 'list', data: [{ ...batch.failure, param: null }] } : null,
    input_file_id: batch.inputFileId,
    completion_window: '24h',
    status,
    output_file_id: batch.outputFileId,
    error_file_id: batch.errorFileId,
    created_at: secs(batch.createdAt),
    in_progress_at: batch.failure ? null : secs(batch.createdAt),
    expires_at: secs(batch.createdAt + DAY_MS),
    finalizing_at: status === 'completed' || status === 'expired' ? secs(ended) : null,
    completed_at: status === 'completed' ? secs(ended) : null,
    failed_at: status === 'failed' ? secs(ended) : null,
    expired_at: status === 'expired' ? secs(ended) : null,
    cancelling_at: secs(batch.cancelledAt),
    cancelled_at: status === 'cancelled' ? secs(ended) : null,
    request_counts: { total: batch.lines.length, completed, failed: outcomes.length - completed },
    metadata: batch.metadata,
  };
}

async function settleOpenAi(server: ServerState, batch: StoredBatch, justCancelled = false): Promise<BatchPhase> {
  const phase = await server.batches.settle(server, batch, justCancelled);
  if (phase === 'ended') writeResultFiles(server, batch);
  return phase;
}

/** After the batch ends: the output file (answered lines) and the error file (failed, expired, cancelled). */
function writeResultFiles(server: ServerState, batch: StoredBatch): void {
  if (!batch.outcomes || batch.outputFileId || batch.errorFileId || batch.failure) return;
  const out: string[] = [];
  const err: string[] = [];
  batch.outcomes.forEach((o, i) => {
    const customId = batch.lines[i]?.customId ?? '';
    const id = `batch_req_${batch.id.slice(6, 18)}${String(i).padStart(6, '0')}`;
    const line = outputLine(o, id, customId, `req_${batch.id.slice(6, 18)}${i}`);
    (o.kind === 'succeeded' ? out : err).push(JSON.stringify(line));
  });
  const name = (s: string) => `${batch.id}_${s}.jsonl`;
  if (out.length > 0)
    batch.outputFileId = server.batches.addFile(server, name('output'), 'batch_output', `${out.join('\n')}\n`).id;
  if (err.length > 0)
    batch.errorFileId = server.batches.addFile(server, name('error'), 'batch_output', `${err.join('\n')}\n`).id;
  // Saved again now that the batch names its files.
  server.batches.save();
}

function outputLine(o: BatchLineOutcome, id: string, customId: string, requestId: string): unknown {
  if (o.kind === 'succeeded' || o.kind === 'errored')
    return {
      id,
      custom_id: customId,
      response: { status_code: o.status, request_id: requestId, body: o.body },
      error: null,
    };
  const code = o.kind === 'expired' ? 'batch_expired' : 'batch_cancelled';
  const message =
    o.kind === 'expired'
      ? 'This request could not be executed before the completion window expired.'
      : 'This request was cancelled.';
  return { id, custom_id: customId, response: null, error: { code, message } };
}
