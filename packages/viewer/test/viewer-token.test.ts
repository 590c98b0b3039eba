// `assay view --host/--token`: off 127.0.0.1 every request (API, bundle, page) carries the token — `?token=` on the
// page load (answered with an HttpOnly cookie), that cookie, or a bearer header — else 401 with no hint of it; the
// same-origin write guard accepts the address listened on and still refuses others; a token is generated when none
// is given, and a short one is refused by the CLI naming --token. Every request goes to 127.0.0.x only.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsResultsStore, trialRecordKey } from '@assay/results';
import { makeTrialRecord } from '../../results/test/make-records.js';
import { ownHosts, sameOriginProblem } from '../src/same-origin.js';
import { startViewer, type RunningViewer } from '../src/start-viewer.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const HOST = '127.0.0.2';
const TOKEN = 'a-test-token-of-32-characters-xx';
let tmp: string;
let results: string;
let viewer: RunningViewer;
let port: number;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request to 127.0.0.x by node:http, which (unlike fetch) lets a test send any Host. */
function request(
  target: string,
  { method = 'GET', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const url = new URL(target);
  if (!/^127\.0\.0\.\d+$/.test(url.hostname)) throw new Error(`not a loopback address: ${url.hostname}`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const at = (p: string) => `http://${HOST}:${port}${p}`;
const own = () => ({ host: `${HOST}:${port}`, origin: `http://${HOST}:${port}` });
const bearer = { authorization: `Bearer ${TOKEN}` };
const postReview = (headers: Record<string, string>) =>
  request(at('/api/reviews/0'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...bearer, ...headers },
    body: '{}',
  });

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'assay-viewer-token-'));
  results = path.join(tmp, 'results');
  await createFsResultsStore(results).putJson(trialRecordKey('s', 't1', 1), makeTrialRecord('s', 't1', 1));
  viewer = await startViewer({
    resultsDirs: [results],
    host: HOST,
    token: TOKEN,
    clientOutDir: path.join(tmp, 'client'),
  });
  port = Number(new URL(viewer.url).port);
}, 120_000);

afterAll(async () => {
  await viewer?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('assay view on another address, with a token', () => {
  it('prints a URL on that address carrying the token', () => {
    expect(viewer.url).toBe(`http://${HOST}:${port}/?token=${TOKEN}`);
  });

  it('refuses every request without the token or with a wrong one, saying nothing of it', async () => {
    for (const p of ['/api/overview', '/api/reviews/0', '/assets/app.js', '/', '/anything']) {
      const none = await request(at(p));
      expect(none.status, p).toBe(401);
      expect(none.body).not.toContain(TOKEN);
      expect(none.headers['set-cookie']).toBeUndefined();
    }
    const api = await request(at('/api/overview'));
    expect(JSON.parse(api.body)).toEqual({ error: expect.stringMatching(/token/) });
    const page = await request(at('/'));
    expect(page.headers['content-type']).toMatch(/^text\/plain/);
    const wrong = TOKEN.slice(0, -1) + 'y';
    for (const headers of <Record<string, string>[]>[
      { authorization: `Bearer ${wrong}` },
      { cookie: `assay_view_token_${port}=${wrong}` },
      { authorization: 'Basic eDp5' },
    ]) {
      expect((await request(at('/api/overview'), { headers })).status).toBe(401);
    }
    expect((await request(at(`/?token=${wrong}`))).status).toBe(401);
    expect((await request(at(`/?token=${TOKEN.slice(0, 8)}`))).status).toBe(401);
  });

  it('lets a page load with ?token= in and sets the HttpOnly cookie; the cookie alone is then enough', async () => {
    const page = await request(at(`/?token=${TOKEN}`));
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="app">');
    const [cookie] = page.headers['set-cookie'] ?? [];
    expect(cookie).toMatch(new RegExp(`^assay_view_token_${port}=${TOKEN};`));
    expect(cookie).toMatch(/; HttpOnly(;|$)/);
    expect(cookie).toMatch(/; SameSite=Strict(;|$)/);
    expect(cookie).toMatch(/; Path=\/(;|$)/);
    const pair = cookie!.split(';')[0]!;
    for (const p of ['/api/overview', '/assets/app.js', '/']) {
      const res = await request(at(p), { headers: { cookie: `other=1; ${pair}` } });
      expect(res.status, p).toBe(200);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const overview = JSON.parse((await request(at('/api/overview'), { headers: { cookie: pair } })).body) as object;
    expect(overview).toBeTypeOf('object');
  });

  it('takes Authorization: Bearer', async () => {
    expect((await request(at('/api/overview'), { headers: bearer })).status).toBe(200);
    expect((await request(at('/api/reviews/0'), { headers: bearer })).status).toBe(200);
  });

  it('accepts writes naming the address listened on and still refuses other hosts and origins', async () => {
    // Past the guard, the empty body is what is refused.
    const ok = await postReview(own());
    expect(ok.status).toBe(400);
    expect(JSON.parse(ok.body)).toEqual({ error: expect.stringMatching(/^reviewer:/) });
    for (const headers of <Record<string, string>[]>[
      { host: `evil.example:${port}`, origin: `http://evil.example:${port}` },
      { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` },
      { host: `${HOST}:${port + 1}`, origin: `http://${HOST}:${port + 1}` },
      { ...own(), origin: 'http://evil.example' },
      { host: own().host },
    ]) {
      const res = await postReview(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body).not.toContain(TOKEN);
    }
    // No token: refused before the guard looks.
    expect((await request(at('/api/reviews/0'), { method: 'POST', headers: own(), body: '{}' })).status).toBe(401);
  });

  it('generates a token off loopback when none is given', async () => {
    const generated = await startViewer({ resultsDirs: [results], host: HOST, clientOutDir: path.join(tmp, 'client') });
    try {
      const url = new URL(generated.url);
      const token = url.searchParams.get('token') ?? '';
      expect(url.hostname).toBe(HOST);
      expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(token).not.toBe(TOKEN);
      expect((await request(`${url.origin}/api/overview`)).status).toBe(401);
      expect((await request(generated.url)).status).toBe(200);
      const res = await request(`${url.origin}/api/overview`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
    } finally {
      await generated.close();
    }
  }, 120_000);

  it('refuses a short token before serving anything', async () => {
    await expect(startViewer({ resultsDirs: [results], host: HOST, token: 'short' })).rejects.toThrow(
      /^--token: a token of 5 characters is too short .*at least 16/,
    );
  });
});

describe('the write guard on a wildcard address', () => {
  it("accepts loopback and the machine's own addresses, not another name", () => {
    const hosts = ownHosts('0.0.0.0', 5000);
    expect(hosts).toEqual(expect.arrayContaining(['127.0.0.1:5000', 'localhost:5000', '[::1]:5000']));
    const first = Object.values(os.networkInterfaces()).flat()[0];
    if (first) expect(hosts).toContain(first.family === 'IPv6' ? `[${first.address}]:5000` : `${first.address}:5000`);
    expect(sameOriginProblem('127.0.0.1:5000', 'http://127.0.0.1:5000', 5000, '0.0.0.0')).toBeNull();
    expect(sameOriginProblem('evil.example:5000', 'http://evil.example:5000', 5000, '0.0.0.0')).toMatch(/^Host/);
    expect(sameOriginProblem('127.0.0.1:5001', 'http://127.0.0.1:5001', 5000, '0.0.0.0')).toMatch(/^Host/);
    // A given address: that one only.
    expect(ownHosts('10.1.2.3', 5000)).toEqual(['10.1.2.3:5000']);
    expect(ownHosts('127.0.0.1', 5000)).toEqual(['127.0.0.1:5000', 'localhost:5000']);
  });
});

/** `assay view ARGS` as a user runs it, stopped once it printed its URL (or exited). */
function runView(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>((resolve) => {
    const vars = { ...process.env, TEMPORAL_ADDRESS: '127.0.0.1:1', ...env } as Record<string, string | undefined>;
    if (!('ASSAY_VIEW_TOKEN' in env)) delete vars.ASSAY_VIEW_TOKEN;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'packages/cli/src/main.ts'), 'view', ...args],
      { cwd: ROOT, env: vars },
    );
    let [out, err] = ['', ''];
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      // Once, as a user would stop it; the CLI must have its handler in place by the time the URL shows.
      if (out.includes('"url"') && !child.killed) child.kill('SIGTERM');
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code, signal) => resolve({ code, signal, out, err }));
  });
}

describe('assay view --host/--token', () => {
  it('refuses a token shorter than 16 characters, naming --token', async () => {
    const r = await runView(['--host', HOST, '--token', 'too-short']);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/--token: a token of 9 characters is too short .*at least 16/);
    expect(r.out).toBe('');
  });

  it('refuses a short ASSAY_VIEW_TOKEN, naming it, on loopback too', async () => {
    const r = await runView([], { ASSAY_VIEW_TOKEN: 'short' });
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/ASSAY_VIEW_TOKEN: a token of 5 characters is too short/);
  });

  it('prints the URL with a generated token when listening off loopback', async () => {
    const r = await runView([results, '--host', HOST, '--json']);
    expect([r.code, r.signal], `${r.out}\n${r.err}`).toEqual([0, null]);
    const { url } = JSON.parse(r.out) as { url: string };
    expect(url).toMatch(new RegExp(`^http://${HOST.replace(/\./g, '\\.')}:\\d+/\\?token=[A-Za-z0-9_-]{32}$`));
  }, 120_000);
});
