// What the proxy relay (packages/harnesses/src/proxy-relay.ts) costs a model CLI on a Harbor task, against
// the host-network path it replaced, both measured in the same run from inside containers:
//   latency: N model requests from a container on network `host` straight to the proxy's loopback port, and
//            from a container on network `none` through the relay and the route's Unix socket (interleaved
//            rounds, so load hits both alike);
//   start-up: a container running `node -e 0` as it is, and wrapped in the relay (which listens, then spawns).
// The runner's own node is mounted at /usr/local/bin/node in the offline base image (the CLI images have 22).
// Usage: npx tsx bench/harnesses/relay-overhead.ts [requests=200] [starts=10]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { startMockLlm } from '../../packages/mock-llm/src/index.js';
import { startModelProxy } from '../../packages/harnesses/src/model-proxy.js';
import { RELAY_NODE, RELAY_PORT, prepareProxyRelay } from '../../packages/harnesses/src/proxy-relay.js';

const n = Number(process.argv[2] ?? 200);
const starts = Number(process.argv[3] ?? 10);
process.env.ASSAY_RELAY_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'assay-relay-bench-'));
const docker = new Docker();
const mock = await startMockLlm({
  script: { rules: [], default: { text: 'x'.repeat(2000), usage: { input: 1000, output: 500, cachedInput: 0 } } },
});
const proxy = await startModelProxy({ port: 0 });
const route = 'relaybench';
proxy.open(route, { upstream: mock.url, api: 'openai-chat', key: 'sk-bench' });
const relay = prepareProxyRelay(route, 'codex');
await proxy.serveRoute(route, relay.socket);

// Prints one JSON line: the median of `count` sequential requests to `base`.
const PROBE = `
const [base, count] = process.argv.slice(1);
(async () => {
  const ms = [];
  for (let i = 0; i < Number(count); i++) {
    const t = performance.now();
    const r = await fetch(base + '/chat/completions', { method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer dummy' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hello' }] }) });
    await r.text();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  console.log(JSON.stringify({ median: ms[Math.floor(ms.length / 2)] }));
})();`;

async function runContainer(cmd: string[], network: string, binds: string[]): Promise<{ out: string; ms: number }> {
  const started = performance.now();
  const c = await docker.createContainer({
    Image: 'assay/base:bookworm',
    Cmd: cmd,
    User: '65534:65534',
    HostConfig: { NetworkMode: network, Binds: [`${process.execPath}:${RELAY_NODE}:ro`, ...binds], Init: true },
  });
  try {
    await c.start();
    await c.wait();
    const ms = performance.now() - started;
    const raw = await c.logs({ stdout: true });
    let out = ''; // Docker's multiplexed frames: an 8-byte header, the size at 4
    for (let at = 0; at + 8 <= raw.length; at += 8 + raw.readUInt32BE(at + 4))
      out += raw.subarray(at + 8, at + 8 + raw.readUInt32BE(at + 4)).toString('utf8');
    return { out: out.trim(), ms };
  } finally {
    await c.remove({ force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const hostMs: number[] = [];
const relayMs: number[] = [];
for (let round = 0; round < 3; round += 1) {
  const host = await runContainer(
    [RELAY_NODE, '-e', PROBE, `http://127.0.0.1:${proxy.port}/r/${route}`, String(n)],
    'host',
    [],
  );
  const viaRelay = await runContainer(
    relay.wrap([RELAY_NODE, '-e', PROBE, `http://127.0.0.1:${RELAY_PORT}/r/${route}`, String(n)]),
    'none',
    [relay.bind],
  );
  hostMs.push((JSON.parse(host.out) as { median: number }).median);
  relayMs.push((JSON.parse(viaRelay.out) as { median: number }).median);
}
const h = median(hostMs);
const r = median(relayMs);
console.log(
  JSON.stringify({
    requestsPerRound: n,
    rounds: 3,
    hostNetworkMedianMs: +h.toFixed(2),
    relayMedianMs: +r.toFixed(2),
    addedMs: +(r - h).toFixed(2),
  }),
);

const plain: number[] = [];
const wrapped: number[] = [];
for (let i = 0; i < starts; i += 1) {
  plain.push((await runContainer([RELAY_NODE, '-e', '0'], 'none', [])).ms);
  wrapped.push((await runContainer(relay.wrap([RELAY_NODE, '-e', '0']), 'none', [relay.bind])).ms);
}
console.log(
  JSON.stringify({
    containerRuns: starts,
    plainMedianMs: +median(plain).toFixed(0),
    withRelayMedianMs: +median(wrapped).toFixed(0),
    addedMs: +(median(wrapped) - median(plain)).toFixed(0),
  }),
);
proxy.close(route);
relay.remove();
await proxy.stop();
await mock.close();
