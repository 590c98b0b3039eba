// The worker's key-injecting reverse proxy. Agent containers get network `host`, the
// proxy's loopback base URL and a dummy key (or, on Harbor tasks, a Unix socket serving their own route
// alone, which a relay in the container reaches: see proxy-relay.ts); the proxy strips whatever credential the
// container sent, adds the real key from the worker's environment and forwards to the
// provider. The real key therefore never enters a container, its env, logs or records.
// It also reads the token usage of every response it relays: an independent cross-check
// of the usage each harness reports about itself.
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import { chmodSync, existsSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { ModelApi } from './harness-adapter.js';
import { messages } from './messages.js';
import { extractModels, extractResponseIds, extractUsage, type TokenCounts } from './response-usage.js';

export interface ProxyRoute {
  /** Provider base URL; the path after /r/<id> is appended to it. */
  upstream: string;
  api: ModelApi;
  /** The real key (read from the worker's environment by the caller). */
  key: string;
  /** Header carrying the key; default by API: x-api-key (anthropic), x-goog-api-key (gemini), authorization Bearer (openai). */
  keyHeader?: string;
}

export interface ProxyUsage extends TokenCounts {
  requests: number;
  /** Responses with a non-2xx status or a broken connection. */
  failed: number;
  /** Of those, the provider's "slow down": 429, 529, or an error body saying overloaded (back-pressure). */
  throttled: number;
  /** When the last of them arrived (ISO time), or null. */
  lastThrottledAt: string | null;
  /** The model ids the provider named in its successful answers, once each (what ran, not what was asked for). */
  models: string[];
  /**
   * The provider's response ids in its successful answers (where the wire protocol has one): how many distinct
   * ones, and the first and last cut to 40 characters (RESPONSE_ID_CHARS). Always set by the proxy; absent in
   * agent results stored before it (unknown, not none).
   */
  responseIds?: ResponseIds;
}

export interface ResponseIds {
  count: number;
  first: string | null;
  last: string | null;
}

/** Response ids are kept this long: enough to find a call in the provider's logs. */
const RESPONSE_ID_CHARS = 40;

export interface ModelProxy {
  host: string;
  port: number;
  /** Register (or refresh, after a worker restart) a route; returns the base URL a container uses. */
  open(id: string, route: ProxyRoute): string;
  usage(id: string): ProxyUsage;
  /**
   * Serve route `id` alone on a Unix socket (a container's relay reaches it there, with no network to the
   * host): any other route asked for on it is unknown. A stale socket file is replaced; serving it again in
   * this process keeps the listener.
   */
  serveRoute(id: string, socketPath: string): Promise<void>;
  /** Drop the route and its socket. */
  close(id: string): void;
  stop(): Promise<void>;
}

export interface StartModelProxyOptions {
  /** Preferred port; when taken, a free one is used. 0 = any. */
  port?: number;
  host?: string;
  log?: (line: string) => void;
  /** Do not keep the process alive for the proxy alone (a worker's shared proxy). */
  unref?: boolean;
}

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

const emptyUsage = (): ProxyUsage => ({
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

function defaultKeyHeader(api: ModelApi): string {
  if (api === 'anthropic') return 'x-api-key';
  if (api === 'gemini') return 'x-goog-api-key';
  return 'authorization';
}

export async function startModelProxy(opts: StartModelProxyOptions = {}): Promise<ModelProxy> {
  const host = opts.host ?? '127.0.0.1';
  const routes = new Map<string, ProxyRoute>();
  const usage = new Map<string, ProxyUsage>();
  // Every response id a route's answers named (distinct ones are counted; usage() hands out the count).
  const seenIds = new Map<string, Set<string>>();
  const sockets = new Set<Socket>();
  const log = opts.log ?? (() => {});

  /** One HTTP server: the TCP one serves every route, a route's Unix socket that route only. */
  const serverFor = (only?: string) => {
    const srv = createServer((req, res) => {
      // Through a route's socket one connection carries one call: the relay in the container ties each of
      // its connections to one connection here, so a kept-alive one would outlive this proxy, and a call sent
      // on it as a replacing worker's proxy takes the socket would fail in flight (not retried: it is a POST).
      if (only !== undefined) res.setHeader('connection', 'close');
      forward(req, res, only).catch((err: unknown) => {
        log(messages.proxyUpstreamFailed((err as Error).message));
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: messages.proxyUpstreamFailed((err as Error).message) } }));
      });
    });
    srv.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    return srv;
  };
  const server = serverFor();
  const routeSockets = new Map<string, { server: ReturnType<typeof createServer>; path: string }>();

  async function forward(req: IncomingMessage, res: ServerResponse, only?: string): Promise<void> {
    const match = /^\/r\/([A-Za-z0-9_-]+)(\/.*)?$/.exec(req.url ?? '');
    const id = match?.[1] ?? '';
    const route = only === undefined || id === only ? routes.get(id) : undefined;
    if (!match || !route) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: messages.proxyUnknownRoute(req.url?.split('?')[0] ?? '') } }));
      return;
    }
    const counts = usage.get(id) ?? emptyUsage();
    usage.set(id, counts);
    counts.requests += 1;
    const target = upstreamUrl(route.upstream, match[2] ?? '/');
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || CREDENTIAL_HEADERS.includes(name) || HOP_HEADERS.includes(name)) continue;
      headers[name] = value;
    }
    // Plain bodies, so usage can be read from them.
    headers['accept-encoding'] = 'identity';
    const keyHeader = (route.keyHeader ?? defaultKeyHeader(route.api)).toLowerCase();
    if (route.key) headers[keyHeader] = keyHeader === 'authorization' ? `Bearer ${route.key}` : route.key;
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    await new Promise<void>((resolve, reject) => {
      const up = send(target, { method: req.method, headers }, (upRes) => {
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
          if (!ok) {
            counts.failed += 1;
            if (isThrottleResponse(status, Buffer.concat(chunks).toString('utf8'))) {
              counts.throttled += 1;
              counts.lastThrottledAt = new Date().toISOString();
            }
          } else {
            const body = Buffer.concat(chunks).toString('utf8');
            const u = extractUsage(route.api, body);
            counts.inputTokens += u.inputTokens;
            counts.outputTokens += u.outputTokens;
            counts.cachedInputTokens += u.cachedInputTokens;
            for (const m of extractModels(route.api, body)) if (!counts.models.includes(m)) counts.models.push(m);
            const seen = seenIds.get(id) ?? new Set<string>();
            seenIds.set(id, seen);
            const ids = (counts.responseIds ??= { count: 0, first: null, last: null });
            for (const r of extractResponseIds(route.api, body)) {
              seen.add(r);
              ids.first ??= r.slice(0, RESPONSE_ID_CHARS);
              ids.last = r.slice(0, RESPONSE_ID_CHARS);
            }
            ids.count = seen.size;
          }
          resolve();
        });
        upRes.on('error', (err) => {
          counts.failed += 1;
          res.destroy(err);
          resolve();
        });
      });
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

  const port = await listen(server, opts.port ?? 0, host);
  if (opts.unref) server.unref();
  log(`model proxy listening on http://${host}:${port}`);
  return {
    host,
    port,
    open(id, route) {
      if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new Error(`model proxy: route id "${id}" must be [A-Za-z0-9_-]+`);
      routes.set(id, route);
      return `http://${host}:${port}/r/${id}`;
    },
    usage: (id) => {
      const u = usage.get(id) ?? emptyUsage();
      const ids = u.responseIds ?? { count: 0, first: null, last: null };
      return { ...u, models: [...u.models], responseIds: { ...ids } };
    },
    async serveRoute(id, socketPath) {
      const open = routeSockets.get(id);
      if (open?.path === socketPath && existsSync(socketPath)) return;
      closeRouteSocket(id);
      // A file left by a worker that died: nothing listens on it any more.
      rmSync(socketPath, { force: true });
      const srv = serverFor(id);
      await new Promise<void>((resolve, reject) => {
        srv.once('error', reject);
        srv.listen(socketPath, () => {
          srv.off('error', reject);
          srv.on('error', (err) => log(messages.proxyUpstreamFailed(err.message)));
          resolve();
        });
      });
      if (opts.unref) srv.unref();
      // The agent's user may not be the worker's: anyone who can reach the file may connect (as to 127.0.0.1).
      chmodSync(socketPath, 0o666);
      routeSockets.set(id, { server: srv, path: socketPath });
    },
    close(id) {
      routes.delete(id);
      closeRouteSocket(id);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const id of [...routeSockets.keys()]) closeRouteSocket(id);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };

  function closeRouteSocket(id: string): void {
    const open = routeSockets.get(id);
    if (!open) return;
    routeSockets.delete(id);
    open.server.close();
    rmSync(open.path, { force: true });
  }
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

function listen(server: ReturnType<typeof createServer>, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE' && port !== 0) {
        server.off('error', onError);
        listen(server, 0, host).then(resolve, reject);
      } else reject(err);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const a = server.address();
      resolve(typeof a === 'object' && a ? a.port : port);
    });
  });
}

let shared: Promise<ModelProxy> | null = null;

/** The one proxy of this worker process. ASSAY_MODEL_PROXY_PORT (default 47800) is tried first, so a restarted worker serves containers its predecessor started. */
export function sharedModelProxy(log?: (line: string) => void): Promise<ModelProxy> {
  shared ??= startModelProxy({
    port: Number(process.env.ASSAY_MODEL_PROXY_PORT ?? 47800),
    unref: true,
    ...(log ? { log } : {}),
  });
  return shared;
}
