// The proxy on the wire, over real HTTP on 127.0.0.1 against a stub provider each test scripts: which headers go
// up and come back, how the path and query are rewritten, what an unknown route, a dead or broken upstream and a
// client that leaves do to the call and its counts, and a route served alone on a Unix socket.
import fs from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../src/messages.js';
import { startModelProxy, type ModelProxy } from '../src/model-proxy.js';

const REAL = 'sk-real-wire-test-0123456789';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-proxy-wire-'));
const logs: string[] = [];
const upstreamSaw: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
// What the stub provider does with the next call (after reading its body).
let answer: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('{}');
const stub = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    upstreamSaw.push({
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: `${Buffer.concat(chunks)}`,
    });
    answer(req, res);
  });
});
let stubUrl = '';
let proxy: ModelProxy;

beforeAll(async () => {
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  proxy = await startModelProxy({ port: 0, log: (line) => logs.push(line) });
});
afterAll(async () => {
  await proxy.stop();
  stub.closeAllConnections();
  await new Promise<void>((resolve) => stub.close(() => resolve()));
  fs.rmSync(tmp, { recursive: true, force: true });
});

interface Call {
  path: string;
  headers?: Record<string, string>;
  body?: string;
  socketPath?: string;
}
interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** One call through node's own client, so every header sent is the test's (fetch adds and forbids some). */
function call(c: Call): Promise<Answer> {
  const where = c.socketPath ? { socketPath: c.socketPath } : { host: '127.0.0.1', port: proxy.port };
  return new Promise((resolve, reject) => {
    const req = request({ ...where, path: c.path, method: 'POST', headers: c.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (b: Buffer) => chunks.push(b));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: `${Buffer.concat(chunks)}` }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(c.body ?? '{"model":"m"}');
  });
}

async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
  if (!done()) throw new Error(`timed out waiting for ${what}`);
}

describe('model proxy on the wire', () => {
  it('says where it listens, and refuses a route id it could not route', () => {
    expect(logs).toContain(`model proxy listening on http://127.0.0.1:${proxy.port}`);
    expect(() => proxy.open('a/b', { upstream: stubUrl, api: 'openai-chat', key: REAL })).toThrow(
      'model proxy: route id "a/b" must be [A-Za-z0-9_-]+',
    );
  });

  it("sends the call's headers on, less credentials and hop headers, with the key in the route's header", async () => {
    answer = (_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-upstream': 'yes', 'content-length': '11' });
      res.end('{"ok":true}');
    };
    const sent = {
      'content-type': 'application/json',
      'x-custom': 'kept',
      authorization: 'Bearer dummy',
      'x-api-key': 'dummy',
      'x-goog-api-key': 'dummy',
      'api-key': 'dummy',
      'proxy-authorization': 'Basic dummy',
      'accept-encoding': 'gzip',
    };
    const routes = [
      { id: 'wire-anthropic', api: 'anthropic', header: 'x-api-key', value: REAL },
      { id: 'wire-openai', api: 'openai-chat', header: 'authorization', value: `Bearer ${REAL}` },
      { id: 'wire-gemini', api: 'gemini', header: 'x-goog-api-key', value: REAL },
      { id: 'wire-own', api: 'gemini', keyHeader: 'X-Key', header: 'x-key', value: REAL },
    ] as const;
    for (const r of routes) {
      upstreamSaw.length = 0;
      const keyHeader = 'keyHeader' in r ? { keyHeader: r.keyHeader } : {};
      const base = proxy.open(r.id, { upstream: `${stubUrl}/base/`, api: r.api, key: REAL, ...keyHeader });
      expect(base).toBe(`http://127.0.0.1:${proxy.port}/r/${r.id}`);
      const res = await call({ path: `/r/${r.id}/v1/x:go?key=dummy&alt=sse`, headers: sent, body: '{"a":1}' });
      expect([res.status, res.text, res.headers['x-upstream'], res.headers['content-length']]).toEqual([
        201,
        '{"ok":true}',
        'yes',
        undefined,
      ]);
      const up = upstreamSaw[0]!;
      expect([up.method, up.url, up.body]).toEqual(['POST', '/base/v1/x:go?alt=sse', '{"a":1}']);
      const credentials = ['authorization', 'x-api-key', 'x-goog-api-key', 'api-key', 'proxy-authorization', 'x-key'];
      const upCredentials = Object.fromEntries(credentials.filter((h) => up.headers[h]).map((h) => [h, up.headers[h]]));
      expect(upCredentials).toEqual({ [r.header]: r.value });
      expect(up.headers).toMatchObject({
        'x-custom': 'kept',
        'content-type': 'application/json',
        'accept-encoding': 'identity',
        host: stubUrl.slice('http://'.length),
      });
    }
    // A bare route forwards to the base; a query straight after the id is no route.
    upstreamSaw.length = 0;
    expect((await call({ path: '/r/wire-openai' })).status).toBe(201);
    expect(upstreamSaw[0]?.url).toBe('/base/');
    expect((await call({ path: '/r/wire-openai?x=1' })).status).toBe(404);
  });

  it('answers an unknown route with its path, and a dead upstream with 502, counted as failed', async () => {
    const unknown = await call({ path: '/r/nope/v1/chat?key=k' });
    expect([unknown.status, unknown.headers['content-type'], JSON.parse(unknown.text)]).toEqual([
      404,
      'application/json',
      { error: { message: messages.proxyUnknownRoute('/r/nope/v1/chat') } },
    ]);
    expect(proxy.usage('nope').requests).toBe(0);

    proxy.open('wire-dead', { upstream: 'http://127.0.0.1:9', api: 'openai-chat', key: REAL });
    const dead = await call({ path: '/r/wire-dead/chat/completions' });
    const message = messages.proxyUpstreamFailed('connect ECONNREFUSED 127.0.0.1:9');
    expect([dead.status, dead.headers['content-type'], JSON.parse(dead.text)]).toEqual([
      502,
      'application/json',
      { error: { message } },
    ]);
    expect(logs).toContain(message);
    expect(proxy.usage('wire-dead')).toMatchObject({ requests: 1, failed: 1, throttled: 0 });
  });

  it('notes an overloaded 5xx body as throttled, and another 5xx as failed only', async () => {
    proxy.open('wire-overloaded', { upstream: stubUrl, api: 'anthropic', key: REAL });
    for (const body of ['{"type":"error","error":{"type":"overloaded_error"}}', '{"error":"internal"}']) {
      answer = (_req, res) => {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(body);
      };
      expect((await call({ path: '/r/wire-overloaded/v1/messages' })).text).toBe(body);
    }
    const u = proxy.usage('wire-overloaded');
    expect(u).toMatchObject({ requests: 2, failed: 2, throttled: 1 });
    expect(u.lastThrottledAt).not.toBeNull();
  });

  it('ends the upstream call when the client leaves, and fails the client when the upstream breaks', async () => {
    proxy.open('wire-leave', { upstream: stubUrl, api: 'openai-chat', key: REAL });
    let upstreamClosed = false;
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {}\n\n');
      res.on('close', () => (upstreamClosed = true));
    };
    await new Promise<void>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: proxy.port, path: '/r/wire-leave/chat', method: 'POST' },
        (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        },
      );
      req.on('error', (err) => (err.message === 'socket hang up' ? undefined : reject(err)));
      req.end('{}');
    });
    await until(() => upstreamClosed, 'the upstream call to end');
    await until(() => proxy.usage('wire-leave').failed === 1, 'the left call to count as failed');
    expect(proxy.usage('wire-leave')).toMatchObject({ requests: 1, failed: 1, outputTokens: 0 });

    proxy.open('wire-broken', { upstream: stubUrl, api: 'openai-chat', key: REAL });
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {}\n\n', () => setTimeout(() => res.socket?.destroy(), 50));
    };
    await expect(call({ path: '/r/wire-broken/chat' })).rejects.toThrow();
    expect(proxy.usage('wire-broken')).toMatchObject({ requests: 1, failed: 1 });
  });

  it('serves one route alone on a Unix socket, a call per connection, and drops the socket with it', async () => {
    answer = (_req, res) => res.end('{"ok":true}');
    const socketPath = path.join(tmp, 'route.sock');
    fs.writeFileSync(socketPath, 'left by a dead worker');
    proxy.open('wire-sock', { upstream: stubUrl, api: 'openai-chat', key: REAL });
    proxy.open('wire-other', { upstream: stubUrl, api: 'openai-chat', key: REAL });
    await proxy.serveRoute('wire-sock', socketPath);
    const stat = fs.statSync(socketPath);
    expect([stat.isSocket(), stat.mode & 0o777]).toEqual([true, 0o666]);
    const own = await call({ path: '/r/wire-sock/chat', socketPath });
    expect([own.status, own.text, own.headers.connection]).toEqual([200, '{"ok":true}', 'close']);
    expect((await call({ path: '/r/wire-other/chat', socketPath })).status).toBe(404);
    expect((await call({ path: '/r/wire-sock/chat' })).headers.connection).toBe('keep-alive');
    expect(proxy.usage('wire-sock').requests).toBe(2);
    // Serving it again keeps the listener; another path moves it.
    await proxy.serveRoute('wire-sock', socketPath);
    expect(fs.statSync(socketPath).ino).toBe(stat.ino);
    const moved = path.join(tmp, 'moved.sock');
    await proxy.serveRoute('wire-sock', moved);
    expect([fs.existsSync(socketPath), fs.existsSync(moved)]).toEqual([false, true]);
    expect((await call({ path: '/r/wire-sock/chat', socketPath: moved })).status).toBe(200);
    proxy.close('wire-sock');
    expect(fs.existsSync(moved)).toBe(false);
    expect((await call({ path: '/r/wire-sock/chat' })).status).toBe(404);
  });

  it('stops with a call still in flight (ending it), and removes its route sockets', async () => {
    const other = await startModelProxy({ port: 0 });
    other.open('wire-stop', { upstream: stubUrl, api: 'openai-chat', key: REAL });
    const socketPath = path.join(tmp, 'stop.sock');
    await other.serveRoute('wire-stop', socketPath);
    // The provider starts an answer it never ends: only the proxy ending the connection lets it stop.
    answer = (_req, res) => res.writeHead(200).write('data: {}\n\n');
    // Settles once stop() has.
    await new Promise<void>((resolve) => {
      const req = request({ host: '127.0.0.1', port: other.port, path: '/r/wire-stop/x', method: 'POST' }, (res) => {
        res.on('error', () => undefined);
        res.once('data', () => resolve(other.stop()));
      });
      req.on('error', () => undefined);
      req.end('{}');
    });
    expect(fs.existsSync(socketPath)).toBe(false);
  });
});
