// The scripted model server: node:http on 127.0.0.1, four wire protocols, scripted
// replies, injected faults, and a recorder of everything it saw.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { messages } from './messages.js';
import { normalizeRequest } from './normalize-request.js';
import { Recorder, redactHeaders, redactUrl, type RecordedRequest } from './recorder.js';
import { ScriptState, estimateTokens, parseScript, resolveReply } from './script.js';
import type { ApiKind, FinalReply, MockRequest, MockScript, ResolvedFault } from './types.js';
import { anthropicError, anthropicJson, anthropicStream } from './wire/anthropic.js';
import type { WireContext } from './wire/chunk-text.js';
import { sseFrame } from './wire/chunk-text.js';
import { geminiError, geminiJson, geminiStreamChunks } from './wire/gemini.js';
import { chatError, chatJson, chatStream } from './wire/openai-chat.js';
import { responsesError, responsesJson, responsesStream } from './wire/openai-responses.js';

export interface StartMockLlmOptions {
  script: MockScript;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Loopback only; default 127.0.0.1. */
  host?: string;
  /** Receives each log line (never a secret). */
  log?: (line: string) => void;
}

export interface MockLlmServer {
  /** e.g. http://127.0.0.1:43210 (no trailing slash, no /v1). */
  url: string;
  port: number;
  requests: RecordedRequest[];
  logs: string[];
  /** Requests to model endpoints (not /models listings), optionally of one API. */
  modelCalls(api?: ApiKind): RecordedRequest[];
  /** Sum of usage of every reply delivered in full. */
  totalUsage(): { input: number; output: number; cachedInput: number };
  sawCredential(secret: string): boolean;
  assertNoSecret(secret: string, extra?: Record<string, string>): void;
  /** Replace the script and reset rule/turn counters (recorded requests are kept). */
  setScript(script: MockScript): void;
  /** Forget recorded requests and logs. */
  clearRecords(): void;
  close(): Promise<void>;
}

interface Route {
  api: ApiKind | 'count-tokens' | 'models';
  model?: string;
  /** count-tokens in Gemini's format. */
  gemini?: boolean;
  stream?: boolean;
  sse?: boolean;
}

function route(method: string, pathname: string, query: URLSearchParams): Route | null {
  if (method === 'GET' && /\/models\/?$/.test(pathname)) return { api: 'models' };
  if (method !== 'POST') return null;
  if (/\/chat\/completions$/.test(pathname)) return { api: 'openai-chat' };
  if (/\/responses$/.test(pathname)) return { api: 'openai-responses' };
  if (/\/messages\/count_tokens$/.test(pathname)) return { api: 'count-tokens' };
  if (/\/messages$/.test(pathname)) return { api: 'anthropic' };
  const c = /\/models\/([^/:]+):countTokens$/.exec(pathname);
  if (c) return { api: 'count-tokens', model: decodeURIComponent(c[1] ?? ''), gemini: true };
  const g = /\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(pathname);
  if (g) {
    const stream = g[2] === 'streamGenerateContent';
    return { api: 'gemini', model: decodeURIComponent(g[1] ?? ''), stream, sse: stream && query.get('alt') === 'sse' };
  }
  return null;
}

function errorBody(api: ApiKind, status: number, message: string): unknown {
  if (api === 'anthropic') return anthropicError(status, message);
  if (api === 'gemini') return geminiError(status, message);
  if (api === 'openai-responses') return responsesError(status, message);
  return chatError(status, message);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const tick = () => new Promise<void>((r) => setImmediate(r));

export async function startMockLlm(options: StartMockLlmOptions): Promise<MockLlmServer> {
  let state = new ScriptState(parseScript(options.script));
  const recorder = new Recorder(options.log);
  const sockets = new Set<Socket>();
  let seq = 0;
  let idCounter = 0;

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      recorder.log(`mock-llm internal error: ${(err as Error).message}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'mock-llm internal error' } }));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    seq += 1;
    const method = req.method ?? 'GET';
    const { path, query, credentials: queryCreds } = redactUrl(req.url ?? '/');
    const { headers, credentials } = redactHeaders(req.headers);
    const raw = await readBody(req);
    const rec: RecordedRequest = {
      seq,
      at: new Date(started).toISOString(),
      method,
      path,
      api: null,
      model: '',
      stream: false,
      headers,
      credentials: [...credentials, ...queryCreds],
      body: raw,
      rule: null,
      fault: null,
      status: 0,
      usage: null,
      reply: null,
      outcome: 'ok',
      durationMs: 0,
    };
    recorder.requests.push(rec);
    const finish = (status: number, outcome: RecordedRequest['outcome']) => {
      rec.status = status;
      rec.outcome = outcome;
      rec.durationMs = Date.now() - started;
      recorder.log(
        `#${rec.seq} ${method} ${path} -> ${status} ${outcome}${rec.rule ? ` rule=${rec.rule}` : ''}${rec.fault ? ` fault=${rec.fault}` : ''}`,
      );
    };
    const sendJson = (status: number, body: unknown, extra: Record<string, string> = {}) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'x-request-id': `req_mock_${rec.seq}`,
        'request-id': `req_mock_${rec.seq}`,
        ...extra,
      });
      res.end(JSON.stringify(body));
    };

    const r = route(method, new URL(req.url ?? '/', 'http://x').pathname, query);
    if (!r) {
      sendJson(404, { error: { message: messages.unknownRoute(method, path), type: 'not_found_error' } });
      return finish(404, 'not-found');
    }
    if (r.api === 'models') {
      sendJson(200, modelList());
      return finish(200, 'ok');
    }
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      body = parsed as Record<string, unknown>;
      rec.body = body;
    } catch (err) {
      const api = r.api === 'count-tokens' ? 'anthropic' : r.api;
      sendJson(400, errorBody(api, 400, messages.badJson((err as Error).message)));
      return finish(400, 'bad-request');
    }
    if (r.api === 'count-tokens') {
      if (r.gemini) {
        const inner = (body.generateContentRequest ?? body) as Record<string, unknown>;
        sendJson(200, { totalTokens: estimateTokens(normalizeRequest('gemini', inner, r.model ?? '', false).all) });
      } else
        sendJson(200, {
          input_tokens: estimateTokens(normalizeRequest('anthropic', body, String(body.model ?? ''), false).all),
        });
      return finish(200, 'ok');
    }
    const api = r.api;
    const model = r.model ?? String(body.model ?? '');
    const stream = r.stream ?? body.stream === true;
    rec.api = api;
    rec.model = model;
    rec.stream = stream;
    const base = normalizeRequest(api, body, model, stream);
    const call = state.nextCall(base.conversationKey);
    const picked = state.pick({ ...base, call, groups: {} });
    const mreq: MockRequest = { ...base, call, groups: picked.groups };
    rec.rule = picked.rule ? (picked.rule.name ?? `rule#${picked.index}`) : null;
    const fault: ResolvedFault | null =
      state.ruleFault(picked.rule) ?? (picked.rule?.noRandomFaults ? null : state.randomFault(raw));
    rec.fault = fault?.kind ?? null;
    if (picked.rule?.delayMs) await sleep(picked.rule.delayMs);

    let aborted = false;
    res.on('close', () => {
      if (!res.writableFinished) aborted = true;
    });

    if (fault?.kind === '429') {
      sendJson(429, errorBody(api, 429, messages.rateLimited(fault.retryAfter)), {
        'retry-after': String(fault.retryAfter),
      });
      return finish(429, 'fault');
    }
    if (fault?.kind === '500') {
      sendJson(500, errorBody(api, 500, messages.serverError()));
      return finish(500, 'fault');
    }
    if (fault?.kind === 'hang') {
      // Never answer; the client's timeout (or close()) ends it.
      await new Promise<void>((resolve) => res.on('close', () => resolve()));
      return finish(0, aborted ? 'client-aborted' : 'fault');
    }

    const source = picked.rule?.reply ?? state.script.default;
    if (source === undefined) {
      sendJson(400, errorBody(api, 400, messages.noRuleMatched(api, model)));
      return finish(400, 'unmatched');
    }
    const reply = await resolveReply(source, mreq, 'call_');
    idCounter += 1;
    const prefix =
      api === 'anthropic' ? 'msg_' : api === 'openai-responses' ? 'resp_' : api === 'gemini' ? '' : 'chatcmpl-';
    const ctx: WireContext = {
      id: `${prefix}mock${String(idCounter).padStart(8, '0')}${reply.toolCalls[0]?.id.slice(5, 17) ?? ''}`,
      model,
      created: Math.floor(started / 1000),
      chunkChars: state.script.chunkChars ?? 16,
      includeUsage: (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true,
    };
    const slowMs = fault?.kind === 'slow' ? fault.ms : 0;

    if (fault?.kind === 'malformed') {
      if (stream) {
        res.writeHead(200, sseHeaders(rec.seq));
        res.write(sseFrame('{"id": "broken", "choices": [ {"delta": '));
        res.end();
      } else {
        res.writeHead(200, {
          'content-type': 'application/json',
          'x-request-id': `req_mock_${rec.seq}`,
          'request-id': `req_mock_${rec.seq}`,
        });
        res.end('{"id": "broken", "object": "chat.completion", "choices": [ {"index": 0, "message": ');
      }
      return finish(200, 'fault');
    }

    if (!stream) {
      const payload = JSON.stringify(
        api === 'anthropic'
          ? anthropicJson(reply, ctx)
          : api === 'gemini'
            ? geminiJson(reply, ctx)
            : api === 'openai-responses'
              ? responsesJson(reply, ctx, body)
              : chatJson(reply, ctx),
      );
      if (slowMs > 0) await sleep(slowMs);
      if (fault?.kind === 'truncate') {
        const bytes = Buffer.from(payload);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bytes.length) });
        res.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
        await tick();
        res.destroy();
        return finish(200, 'fault');
      }
      rec.reply = { text: reply.text, toolCalls: reply.toolCalls, stopReason: reply.stopReason };
      if (aborted) return finish(0, 'client-aborted');
      sendJson(200, JSON.parse(payload));
      rec.usage = reply.usage;
      return finish(200, fault ? 'fault' : 'ok');
    }

    const frames = streamFrames(api, reply, ctx, body, r.sse ?? true);
    res.writeHead(200, r.api === 'gemini' && !r.sse ? { 'content-type': 'application/json' } : sseHeaders(rec.seq));
    const gap = slowMs > 0 ? Math.ceil(slowMs / Math.max(1, frames.length)) : 0;
    for (const [i, frame] of frames.entries()) {
      if (fault?.kind === 'truncate' && i >= fault.afterChunks) {
        res.destroy();
        return finish(200, 'fault');
      }
      if (aborted) return finish(200, 'client-aborted');
      res.write(frame);
      if (gap > 0) await sleep(gap);
      else await tick();
    }
    res.end();
    rec.reply = { text: reply.text, toolCalls: reply.toolCalls, stopReason: reply.stopReason };
    rec.usage = reply.usage;
    return finish(200, fault ? 'fault' : 'ok');
  }

  function streamFrames(
    api: ApiKind,
    reply: FinalReply,
    ctx: WireContext,
    body: Record<string, unknown>,
    sse: boolean,
  ): string[] {
    if (api === 'anthropic') return anthropicStream(reply, ctx);
    if (api === 'openai-responses') return responsesStream(reply, ctx, body);
    if (api === 'openai-chat') return chatStream(reply, ctx);
    const chunks = geminiStreamChunks(reply, ctx);
    if (sse) return chunks.map((c) => sseFrame(c));
    // Without alt=sse Gemini streams one JSON array.
    return chunks.map((c, i) => `${i === 0 ? '[' : ',\r\n'}${JSON.stringify(c)}${i === chunks.length - 1 ? ']' : ''}`);
  }

  function modelList(): unknown {
    const ids = [...new Set(['mock-model', ...recorder.requests.map((r) => r.model).filter((m) => m.length > 0)])];
    const data = ids.map((id) => ({
      id,
      object: 'model',
      type: 'model',
      created: 0,
      created_at: '1970-01-01T00:00:00Z',
      owned_by: 'mock-llm',
      display_name: id,
    }));
    return {
      object: 'list',
      data,
      has_more: false,
      first_id: ids[0],
      last_id: ids.at(-1),
      models: ids.map((id) => ({ name: `models/${id}`, displayName: id })),
    };
  }

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://${host}:${port}`;
  recorder.log(messages.listening(url));

  return {
    url,
    port,
    requests: recorder.requests,
    logs: recorder.logs,
    modelCalls: (api) => recorder.requests.filter((r) => r.api !== null && (api === undefined || r.api === api)),
    totalUsage: () =>
      recorder.requests.reduce(
        (s, r) =>
          r.usage
            ? {
                input: s.input + r.usage.input,
                output: s.output + r.usage.output,
                cachedInput: s.cachedInput + r.usage.cachedInput,
              }
            : s,
        { input: 0, output: 0, cachedInput: 0 },
      ),
    sawCredential: (secret) => recorder.sawCredential(secret),
    assertNoSecret: (secret, extra) => recorder.assertNoSecret(secret, extra),
    setScript: (script) => {
      state = new ScriptState(parseScript(script));
    },
    clearRecords: () => {
      recorder.requests.length = 0;
      recorder.logs.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function sseHeaders(seq: number): Record<string, string> {
  return {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': `req_mock_${seq}`,
    'request-id': `req_mock_${seq}`,
  };
}
