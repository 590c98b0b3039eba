// The relay a model CLI on a Harbor task reaches the worker's proxy through, in real containers with no way
// to the host: on network `none` and on an internal bridge network (a compose task's trial network), as a
// non-root user, with the runner's own node mounted where the CLI images have theirs. The container reaches
// its own route through 127.0.0.1:RELAY_PORT (the proxy adds the real key), no other route, and no port of
// the worker; a proxy that replaced a dead one (a restarted worker) serves the running container's next
// call, even when the relay was stalled while the proxies changed; the relay runs the command as its child and
// exits with its code. Needs Docker and the base image.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SystemSpec } from '@assay/core';
import { startMockLlm, type MockLlmServer } from '@assay/mock-llm';
import { startModelProxy, type ModelProxy } from '../src/model-proxy.js';
import { prepareHarnessRun, routeIdFor } from '../src/prepare-harness-run.js';
import { RELAY_MOUNT, RELAY_NODE, RELAY_PORT, prepareProxyRelay } from '../src/proxy-relay.js';
import { checkDockerReady } from '../../../test/support/docker-ready.js';

const REAL = 'sk-real-relay-test-0123456789';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-relay-test-'));
process.env.ASSAY_RELAY_DIR = path.join(tmp, 'relay');
const docker = new Docker();
const dockerReady = await checkDockerReady(docker);
let mock: MockLlmServer;
let proxy: ModelProxy;
const networks: string[] = [];

beforeAll(async () => {
  mock = await startMockLlm({
    script: { rules: [], default: { text: 'hello through the relay', usage: { input: 10, output: 2 } } },
  });
  proxy = await startModelProxy({ port: 0 });
});
afterAll(async () => {
  await proxy.stop();
  await mock.close();
  for (const n of networks) await docker.getNetwork(n).remove();
  fs.rmSync(tmp, { recursive: true, force: true });
});

// Inside the container (argv: own route, another route, the worker's proxy port, a gateway or "-"): its own
// route, another's, the worker's port on loopback and on the gateway; then, once told, its route again.
const PROBE = `
const fs = require('node:fs'); const net = require('node:net');
const [own, other, port, gateway] = process.argv.slice(1);
const post = async (route) => {
  const r = await fetch('http://127.0.0.1:${RELAY_PORT}/r/' + route + '/chat/completions', { method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer dummy' },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) });
  return r.status + ' ' + (await r.text()).includes('hello through the relay');
};
const reach = (host) => new Promise((done) => {
  const s = net.connect({ host, port: Number(port) });
  const t = setTimeout(() => { s.destroy(); done('timeout'); }, 2000);
  s.on('connect', () => { clearTimeout(t); s.destroy(); done('connected'); });
  s.on('error', (e) => { clearTimeout(t); done(e.code); });
});
(async () => {
  const first = { own: await post(own), other: await post(other), loopback: await reach('127.0.0.1'),
    gateway: gateway === '-' ? null : await reach(gateway) };
  fs.writeFileSync('/out/first.json', JSON.stringify(first));
  while (!fs.existsSync('/out/go')) await new Promise((r) => setTimeout(r, 100));
  fs.writeFileSync('/out/sending', '');
  fs.writeFileSync('/out/second.json', JSON.stringify({ own: await post(own) }));
  process.exit(3);
})();
`;

/** The host pid of the container's process whose command line holds `needle` (not the init that started it). */
async function pidOf(container: Docker.Container, needle: string): Promise<number> {
  const top = (await container.top({ ps_args: '-eo pid,args' })) as { Processes?: string[][] };
  const row = top.Processes?.find((p) => p.join(' ').includes(needle) && !p.join(' ').includes('docker-init'));
  if (!row?.[0]) throw new Error(`no process ${needle} in ${JSON.stringify(top)}`);
  return Number(row[0]);
}

async function until(file: string): Promise<string> {
  for (let i = 0; i < 600; i++) {
    if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8');
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${file}`);
}

describe('prepareHarnessRun with the relay', () => {
  it("wraps the CLI's command in the relay, mounts its folder read-only, and keeps the caller's network", () => {
    const sessionDir = path.join(tmp, 'session');
    const system: SystemSpec = { id: 'c', harness: 'codex', model: 'm', settings: { baseUrl: mock.url } };
    const limits = { maxSteps: 5, agentSeconds: 60 };
    const run = prepareHarnessRun({ system, runId: 'wf-relay', sessionDir, image: 'img', proxy, limits, relay: true });
    const route = routeIdFor('wf-relay');
    expect(run.relaySocket).toBe(path.join(process.env.ASSAY_RELAY_DIR!, route, 'proxy.sock'));
    expect(run.container.network).toBeUndefined();
    expect(run.container.cmd.slice(0, 5)).toEqual([
      RELAY_NODE,
      `${RELAY_MOUNT}/proxy-relay.mjs`,
      String(RELAY_PORT),
      `${RELAY_MOUNT}/proxy.sock`,
      '--',
    ]);
    expect(run.container.binds).toContain(`${path.dirname(run.relaySocket!)}:${RELAY_MOUNT}:ro`);
    // The CLI's config names the relay's loopback URL, not the worker's proxy port.
    const config = fs.readFileSync(path.join(sessionDir, '.codex/config.toml'), 'utf8');
    expect(config).toContain(`http://127.0.0.1:${RELAY_PORT}/r/${route}`);
    expect(config).not.toContain(`:${proxy.port}/`);
    run.collect('');
    expect(fs.existsSync(path.dirname(run.relaySocket!))).toBe(false);
    const plain = prepareHarnessRun({ system, runId: 'wf-plain', sessionDir, image: 'img', proxy, limits });
    expect(plain.container.network).toBe('host');
    // A Python CLI relays too: on another image its bundle sits on the node22 runtime.
    const kimi = prepareHarnessRun({
      system: { id: 'k', harness: 'kimi-cli', model: 'm', settings: { baseUrl: mock.url } },
      ...{ runId: 'wf-kimi', sessionDir, image: 'img', proxy, limits, relay: true },
    });
    expect(kimi.container.cmd[0]).toBe(RELAY_NODE);
    kimi.collect('');
    expect(() => prepareProxyRelay('wf-mine', 'command')).toThrow(/not an installed CLI/);
  });

  it('replaces a stale socket file a dead worker left', async () => {
    const relay = prepareProxyRelay('stale-route', 'codex');
    fs.writeFileSync(relay.socket, 'left behind');
    proxy.open('stale-route', { upstream: mock.url, api: 'openai-chat', key: REAL });
    await proxy.serveRoute('stale-route', relay.socket);
    expect(fs.statSync(relay.socket).isSocket()).toBe(true);
    proxy.close('stale-route');
    expect(fs.existsSync(relay.socket)).toBe(false);
    relay.remove();
  });
});

describe.skipIf(!dockerReady)('the proxy relay in a container without a network to the host', () => {
  it.each(['none', 'internal'])(
    'on network %s: its own route only, no worker port, the key stays out, a new proxy serves it',
    async (kind) => {
      let network = 'none';
      let gateway = '-';
      if (kind === 'internal') {
        network = `assay-relay-test-${process.pid}`;
        const created = await docker.createNetwork({ Name: network, Driver: 'bridge', Internal: true });
        networks.push(network);
        gateway = (await created.inspect()).IPAM?.Config?.[0]?.Gateway ?? '-';
      }
      const own = routeIdFor(`relay-${kind}`);
      const other = routeIdFor(`relay-other-${kind}`);
      const route = { upstream: `${mock.url}/v1`, api: 'openai-chat' as const, key: REAL };
      proxy.open(own, route);
      proxy.open(other, route);
      const relay = prepareProxyRelay(own, 'codex');
      await proxy.serveRoute(own, relay.socket);
      const out = fs.mkdtempSync(path.join(tmp, 'out-'));
      fs.chmodSync(out, 0o777);
      mock.clearRecords();
      const container = await docker.createContainer({
        Image: 'assay/base:bookworm',
        Cmd: relay.wrap([RELAY_NODE, '-e', PROBE, own, other, String(proxy.port), gateway]),
        User: '65534:65534',
        Labels: { 'assay.test': 'proxy-relay' },
        HostConfig: {
          NetworkMode: network,
          Binds: [`${process.execPath}:${RELAY_NODE}:ro`, relay.bind, `${out}:/out`],
          Init: true,
        },
      });
      try {
        await container.start();
        const first = JSON.parse(await until(path.join(out, 'first.json'))) as Record<string, string | null>;
        expect(first).toEqual({
          own: '200 true',
          other: '404 false', // the socket serves this run's route alone
          loopback: 'ECONNREFUSED', // the container's own loopback: the worker's port is not there
          gateway: kind === 'internal' ? 'ECONNREFUSED' : null, // the proxy listens on the host's loopback only
        });
        expect(mock.requests).toHaveLength(1);
        expect(mock.sawCredential(REAL)).toBe(true);

        // The worker dies and another takes its place: a new proxy serves the route on the same socket path.
        // The relay is stopped meanwhile (as a loaded machine may leave it unscheduled), so the old proxy's
        // end reaches it only after the next call was sent: a kept-alive connection would carry that call to
        // the dead proxy and fail it (CI saw it one run in three); one call per connection cannot.
        const relayPid = await pidOf(container, 'proxy-relay.mjs');
        process.kill(relayPid, 'SIGSTOP');
        await proxy.stop();
        proxy = await startModelProxy({ port: 0 });
        proxy.open(own, route);
        await proxy.serveRoute(own, relay.socket);
        fs.writeFileSync(path.join(out, 'go'), '');
        await until(path.join(out, 'sending'));
        await new Promise((r) => setTimeout(r, 200));
        process.kill(relayPid, 'SIGCONT');
        expect((await container.wait()).StatusCode).toBe(3); // the command's own exit code
        expect(JSON.parse(await until(path.join(out, 'second.json')))).toEqual({ own: '200 true' });
        expect(proxy.usage(own).requests).toBe(1);

        const info = await container.inspect();
        const logs = (await container.logs({ stdout: true, stderr: true })).toString('utf8');
        const written = fs.readdirSync(out).map((f) => fs.readFileSync(path.join(out, f), 'utf8'));
        mock.assertNoSecret(REAL, { inspect: JSON.stringify(info), logs, out: written.join('\n') });
      } finally {
        await container.remove({ force: true });
        proxy.close(own);
        proxy.close(other);
        relay.remove();
      }
    },
    120_000,
  );
});
