// The worker's key-injecting reverse proxy. Agent containers get network `host`, the
// proxy's loopback base URL and a dummy key (or, on Harbor tasks, a Unix socket serving their own route
// alone, which a relay in the container reaches: see proxy-relay.ts); the proxy strips whatever credential the
// container sent, adds the real key from the worker's environment and forwards to the
// provider. The real key therefore never enters a container, its env, logs or records.
// It also reads the token usage of every response it relays: an independent cross-check
// of the usage each harness reports about itself. Each call's forwarding and counting: forward-model-call.ts.
import { createServer, type Server } from 'node:http';
import { chmodSync, existsSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { emptyUsage, forwardModelCall, type ProxyTable } from './forward-model-call.js';
import type { ModelApi } from './harness-adapter.js';
import { messages } from './messages.js';
import type { TokenCounts } from './response-usage.js';

export { isThrottleResponse } from './forward-model-call.js';

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
   * ones, and the first and last cut to 40 characters (RESPONSE_ID_CHARS in forward-model-call.ts). Always set
   * by the proxy; absent in agent results stored before it (unknown, not none).
   */
  responseIds?: ResponseIds;
}

export interface ResponseIds {
  count: number;
  first: string | null;
  last: string | null;
}

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

/** The routes and their counts (which each call reads and adds to), and the proxy's listeners and connections. */
interface ProxyState extends ProxyTable {
  sockets: Set<Socket>;
  routeSockets: Map<string, { server: Server; path: string }>;
  log: (line: string) => void;
  unref: boolean;
}

export async function startModelProxy(opts: StartModelProxyOptions = {}): Promise<ModelProxy> {
  const host = opts.host ?? '127.0.0.1';
  const state: ProxyState = {
    routes: new Map(),
    usage: new Map(),
    seenIds: new Map(),
    sockets: new Set(),
    routeSockets: new Map(),
    log: opts.log ?? (() => {}),
    unref: !!opts.unref,
  };
  const server = createProxyServer(state);
  const port = await listen(server, opts.port ?? 0, host);
  if (opts.unref) server.unref();
  state.log(`model proxy listening on http://${host}:${port}`);
  return createProxyHandle(state, server, host, port);
}

function createProxyHandle(state: ProxyState, server: Server, host: string, port: number): ModelProxy {
  return {
    host,
    port,
    open(id, route) {
      if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new Error(`model proxy: route id "${id}" must be [A-Za-z0-9_-]+`);
      state.routes.set(id, route);
      return `http://${host}:${port}/r/${id}`;
    },
    usage: (id) => {
      const u = state.usage.get(id) ?? emptyUsage();
      const ids = u.responseIds ?? { count: 0, first: null, last: null };
      return { ...u, models: [...u.models], responseIds: { ...ids } };
    },
    serveRoute: (id, socketPath) => serveRouteSocket(state, id, socketPath),
    close(id) {
      state.routes.delete(id);
      closeRouteSocket(state, id);
    },
    stop: () => stopProxy(state, server),
  };
}

/** One HTTP server: the TCP one serves every route, a route's Unix socket that route only. */
function createProxyServer(state: ProxyState, only?: string): Server {
  const srv = createServer((req, res) => {
    // Through a route's socket one connection carries one call: the relay in the container ties each of
    // its connections to one connection here, so a kept-alive one would outlive this proxy, and a call sent
    // on it as a replacing worker's proxy takes the socket would fail in flight (not retried: it is a POST).
    if (only !== undefined) res.setHeader('connection', 'close');
    forwardModelCall(state, req, res, only).catch((err: unknown) => {
      state.log(messages.proxyUpstreamFailed((err as Error).message));
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: messages.proxyUpstreamFailed((err as Error).message) } }));
    });
  });
  srv.on('connection', (s) => {
    state.sockets.add(s);
    s.on('close', () => state.sockets.delete(s));
  });
  return srv;
}

async function serveRouteSocket(state: ProxyState, id: string, socketPath: string): Promise<void> {
  const open = state.routeSockets.get(id);
  if (open?.path === socketPath && existsSync(socketPath)) return;
  closeRouteSocket(state, id);
  // A file left by a worker that died: nothing listens on it any more.
  rmSync(socketPath, { force: true });
  const srv = createProxyServer(state, id);
  await new Promise<void>((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(socketPath, () => {
      srv.off('error', reject);
      srv.on('error', (err) => state.log(messages.proxyUpstreamFailed(err.message)));
      resolve();
    });
  });
  if (state.unref) srv.unref();
  // The agent's user may not be the worker's: anyone who can reach the file may connect (as to 127.0.0.1).
  chmodSync(socketPath, 0o666);
  state.routeSockets.set(id, { server: srv, path: socketPath });
}

function closeRouteSocket(state: ProxyState, id: string): void {
  const open = state.routeSockets.get(id);
  if (!open) return;
  state.routeSockets.delete(id);
  open.server.close();
  rmSync(open.path, { force: true });
}

function stopProxy(state: ProxyState, server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    for (const id of [...state.routeSockets.keys()]) closeRouteSocket(state, id);
    for (const s of state.sockets) s.destroy();
    server.close(() => resolve());
  });
}

function listen(server: Server, port: number, host: string): Promise<number> {
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
