// Latency the key-injecting proxy adds per model request, against the same requests sent
// straight to the scripted model server (the baseline, measured in the same run).
// Usage: npx tsx bench/harnesses/proxy-overhead.ts [requests=300]
import { startMockLlm } from '../../packages/mock-llm/src/index.js';
import { startModelProxy } from '../../packages/harnesses/src/model-proxy.js';

const n = Number(process.argv[2] ?? 300);
const mock = await startMockLlm({
  script: { rules: [], default: { text: 'x'.repeat(2000), usage: { input: 1000, output: 500, cachedInput: 0 } } },
});
const proxy = await startModelProxy({ port: 0 });
const viaProxy = proxy.open('bench', { upstream: mock.url, api: 'openai-chat', key: 'sk-bench' });

async function timed(base: string, stream: boolean): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${base}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer dummy' },
    body: JSON.stringify({
      model: 'm',
      stream,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hello' }],
    }),
  });
  await res.text();
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
for (const stream of [false, true]) {
  const direct: number[] = [];
  const proxied: number[] = [];
  for (let i = 0; i < n; i += 1) {
    // Interleaved, so background load hits both alike.
    direct.push(await timed(mock.url, stream));
    proxied.push(await timed(viaProxy, stream));
  }
  const d = median(direct);
  const p = median(proxied);
  console.log(
    JSON.stringify({
      stream,
      requests: n,
      directMedianMs: +d.toFixed(2),
      proxyMedianMs: +p.toFixed(2),
      addedMs: +(p - d).toFixed(2),
      ratio: +(p / d).toFixed(2),
    }),
  );
}
const u = proxy.usage('bench');
console.log(JSON.stringify({ proxyCounted: u, expectedInput: 2 * n * 1000 }));
await proxy.stop();
await mock.close();
