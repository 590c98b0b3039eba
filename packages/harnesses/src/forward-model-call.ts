// One call through the model proxy (model-proxy.ts): its route found from the path, its headers rewritten (the
// container's credentials out, the route's real key in), sent to the provider, and the answer streamed back
// while its token usage, model ids and response ids are counted for the route.
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ModelApi } from './harness-adapter.js';
import { messages } from './messages.js';
import type { ProxyRoute, ProxyUsage } from './model-proxy.js';
import { extractModels, extractResponseIds, extractUsage } from './response-usage.js';

/** What the calls through one proxy share: its routes, and what each route's answers added up to. */
export interface ProxyTable {
  routes: Map<string, ProxyRoute>;
  usage: Map<string, ProxyUsage>;
  /** Every response id a route's answers named (distinct ones are counted; usage() hands out the count). */
  seenIds: Map<string, Set<string>>;
}

/** One call on its way: its route, and the route's counts (the object usage() copies) its answer adds to. */
interface RoutedCall {
  table: ProxyTable;
  id: string;
  route: ProxyRoute;
  counts: ProxyUsage;
  req: IncomingMessage;
  res: ServerResponse;
}

/** Response ids are kept this long: enough to find a call in the provider's logs. */
const RESPONSE_ID_CHARS = 40;

// Credentials a client may send in any of the supported APIs: all are removed.
const CREDENTIAL_HEADERS = ['authorization', 'x-api-key', 'x-goog-api-key', 'api-key', 'proxy-authorization'];
const HOP_HEADERS = [
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
  'content-length',
  'accept-encoding',
];
const MAX_CAPTURE = 64 * 1024 ** 2;

export const emptyUsage = (): ProxyUsage => ({
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  requests: 0,
  failed: 0,
  throttled: 0,
  lastThrottledAt: null,
  models: [],
  responseIds: { count: 0, first: null, last: null },
});

/** A provider asking its client to slow down: rate limited (429), overloaded (Anthropic's 529, or a 5xx saying so). */
export function isThrottleResponse(status: number, body: string): boolean {
  return status === 429 || status === 529 || (status >= 500 && /overloaded/i.test(body));
}

/** Forwards a call to /r/<id>/...: a route `only` serves no other (404), nor does a route not open. */
export async function forwardModelCall(
  table: ProxyTable,
  req: IncomingMessage,
  res: ServerResponse,
  only?: string,
): Promise<void> {
  const match = /^\/r\/([A-Za-z0-9_-]+)(\/.*)?$/.exec(req.url ?? '');
  const id = match?.[1] ?? '';
  const route = only === undefined || id === only ? table.routes.get(id) : undefined;
  if (!match || !route) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: messages.proxyUnknownRoute(req.url?.split('?')[0] ?? '') } }));
    return;
  }
  const counts = table.usage.get(id) ?? emptyUsage();
  table.usage.set(id, counts);
  counts.requests += 1;
  const target = upstreamUrl(route.upstream, match[2] ?? '/');
  const headers = rewriteRequestHeaders(req, route);
  await sendUpstream({ table, id, route, counts, req, res }, target, headers);
}

function upstreamUrl(base: string, rest: string): URL {
  const u = new URL(base);
  const [restPath, query] = rest.split('?', 2) as [string, string | undefined];
  u.pathname = `${u.pathname.replace(/\/+$/, '')}${restPath}`;
  // A key in the query (Gemini's ?key=) is the container's dummy: drop it.
  const params = new URLSearchParams(query ?? '');
  params.delete('key');
  for (const [k, v] of params) u.searchParams.append(k, v);
  return u;
}

/** The call's own headers, less any credential and hop-by-hop ones, plus the route's real key. */
function rewriteRequestHeaders(req: IncomingMessage, route: ProxyRoute): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || CREDENTIAL_HEADERS.includes(name) || HOP_HEADERS.includes(name)) continue;
    headers[name] = value;
  }
  // Plain bodies, so usage can be read from them.
  headers['accept-encoding'] = 'identity';
  const keyHeader = (route.keyHeader ?? defaultKeyHeader(route.api)).toLowerCase();
  if (route.key) headers[keyHeader] = keyHeader === 'authorization' ? `Bearer ${route.key}` : route.key;
  return headers;
}

function defaultKeyHeader(api: ModelApi): string {
  if (api === 'anthropic') return 'x-api-key';
  if (api === 'gemini') return 'x-goog-api-key';
  return 'authorization';
}

/** Settles once the answer is relayed or broke off; rejects when the provider cannot be reached (a 502). */
function sendUpstream(call: RoutedCall, target: URL, headers: OutgoingHttpHeaders): Promise<void> {
  const { req, res, counts } = call;
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<void>((resolve, reject) => {
    const up = send(target, { method: req.method, headers }, (upRes) => relayAnswer(call, upRes, resolve));
    up.on('error', (err) => {
      counts.failed += 1;
      reject(err);
    });
    // The client went away: stop the upstream request too.
    res.on('close', () => {
      if (!res.writableFinished) up.destroy();
    });
    req.pipe(up);
  });
}

/** Streams the answer back as it arrives, keeping its body (up to MAX_CAPTURE) to count once it has ended. */
function relayAnswer(call: RoutedCall, upRes: IncomingMessage, done: () => void): void {
  const { res, counts } = call;
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(upRes.headers)) {
    if (value !== undefined && !HOP_HEADERS.includes(name)) out[name] = value;
  }
  res.writeHead(upRes.statusCode ?? 502, out);
  const chunks: Buffer[] = [];
  let size = 0;
  upRes.on('data', (c: Buffer) => {
    if (size < MAX_CAPTURE) chunks.push(c);
    size += c.length;
    res.write(c);
  });
  upRes.on('end', () => {
    res.end();
    const status = upRes.statusCode ?? 500;
    const ok = status < 300;
    if (!ok) countFailedAnswer(counts, status, chunks);
    else countAnswer(call, Buffer.concat(chunks).toString('utf8'));
    done();
  });
  upRes.on('error', (err) => {
    counts.failed += 1;
    res.destroy(err);
    done();
  });
}

function countFailedAnswer(counts: ProxyUsage, status: number, chunks: Buffer[]): void {
  counts.failed += 1;
  if (isThrottleResponse(status, Buffer.concat(chunks).toString('utf8'))) {
    counts.throttled += 1;
    counts.lastThrottledAt = new Date().toISOString();
  }
}

/** A successful answer: its tokens, the models it named and its response ids. */
function countAnswer({ table, id, route, counts }: RoutedCall, body: string): void {
  const u = extractUsage(route.api, body);
  counts.inputTokens += u.inputTokens;
  counts.outputTokens += u.outputTokens;
  counts.cachedInputTokens += u.cachedInputTokens;
  for (const m of extractModels(route.api, body)) if (!counts.models.includes(m)) counts.models.push(m);
  const seen = table.seenIds.get(id) ?? new Set<string>();
  table.seenIds.set(id, seen);
  const ids = (counts.responseIds ??= { count: 0, first: null, last: null });
  for (const r of extractResponseIds(route.api, body)) {
    seen.add(r);
    ids.first ??= r.slice(0, RESPONSE_ID_CHARS);
    ids.last = r.slice(0, RESPONSE_ID_CHARS);
  }
  ids.count = seen.size;
}
