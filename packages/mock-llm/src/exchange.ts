// One request and its answer: the record of what came in (secrets redacted), the helpers
// that answer it, and `finish`, which closes the record with status, outcome and a log line.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { openRecord, redactHeaders, redactUrl, type RecordedRequest, type Recorder } from './recorder.js';
import type { ServerState } from './server-state.js';

export class Exchange {
  private aborted = false;

  constructor(
    readonly res: ServerResponse,
    readonly rec: RecordedRequest,
    private readonly recorder: Recorder,
    readonly started: number,
  ) {}

  /** Whether the client hung up before the reply was complete (noticed only after `watchAbort`). */
  get clientAborted(): boolean {
    return this.aborted;
  }

  watchAbort(): void {
    this.res.on('close', () => {
      if (!this.res.writableFinished) this.aborted = true;
    });
  }

  jsonHeaders(): Record<string, string> {
    return {
      'content-type': 'application/json',
      'x-request-id': `req_mock_${this.rec.seq}`,
      'request-id': `req_mock_${this.rec.seq}`,
    };
  }

  sseHeaders(): Record<string, string> {
    return {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-request-id': `req_mock_${this.rec.seq}`,
      'request-id': `req_mock_${this.rec.seq}`,
    };
  }

  sendJson(status: number, body: unknown, extra: Record<string, string> = {}): void {
    this.res.writeHead(status, { ...this.jsonHeaders(), ...extra });
    this.res.end(JSON.stringify(body));
  }

  finish(status: number, outcome: RecordedRequest['outcome']): void {
    const rec = this.rec;
    rec.status = status;
    rec.outcome = outcome;
    rec.durationMs = Date.now() - this.started;
    this.recorder.log(
      `#${rec.seq} ${rec.method} ${rec.path} -> ${status} ${outcome}${rec.rule ? ` rule=${rec.rule}` : ''}${rec.fault ? ` fault=${rec.fault}` : ''}`,
    );
  }
}

/** Number and record the request (before anything can fail), then read its body. */
export async function openExchange(
  server: ServerState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<{ exchange: Exchange; raw: string }> {
  const started = Date.now();
  server.seq += 1;
  const seq = server.seq;
  const { path, credentials: queryCreds } = redactUrl(req.url ?? '/');
  const { headers, credentials } = redactHeaders(req.headers);
  const raw = await readBody(req);
  const rec = openRecord({
    seq,
    at: new Date(started).toISOString(),
    method: req.method ?? 'GET',
    path,
    api: null,
    model: '',
    headers,
    credentials: [...credentials, ...queryCreds],
    body: raw,
  });
  server.recorder.requests.push(rec);
  return { exchange: new Exchange(res, rec, server.recorder, started), raw };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
