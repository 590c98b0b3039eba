// Judge-side overhead per criterion and call counts per mode, against the scripted model server.
//
//   npx tsx bench/judge/judge-bench.ts [--rounds 5] [--latency 50]
//
// Baseline (same run): the bare SDK making the same number of chat-completion calls with
// no judge logic. "Overhead" is our own time: each session's wall time minus its time inside
// model requests (SDK + local HTTP + scripted server), plus the run's time outside sessions
// (checks, reuse lookups, assembly, cache writes), divided by the number of criteria. A second table adds a fixed model latency
// to show how the modes' wall times scale when the model, not we, dominates.
import { judgeSetupSchema, type JudgeSetup } from '../../packages/core/src/index.js';
import { judgeItems, createJudgeModel, type JudgeRunResult } from '../../packages/judge/src/index.js';
import { startMockLlm, type MockLlmServer } from '../../packages/mock-llm/src/index.js';
import { CONTEXT, ITEMS, KEY, KEY_ENV, evidence, judgeScript } from '../../packages/judge/test/fixtures.js';

const args = process.argv.slice(2);
const flag = (name: string, dflt: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const ROUNDS = flag('rounds', 5);
const LATENCY = flag('latency', 50);
const MODES = ['per-item', 'batched', 'holistic'] as const;
const env = { [KEY_ENV]: KEY };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

async function runMode(
  server: MockLlmServer,
  mode: (typeof MODES)[number],
): Promise<{ r: JudgeRunResult; http: number }> {
  server.clearRecords();
  const setup: JudgeSetup = judgeSetupSchema.parse({
    mode,
    provider: 'openai',
    model: 'bench-judge',
    baseUrl: `${server.url}/v1`,
    apiKeyEnv: KEY_ENV,
  });
  const r = await judgeItems({
    items: ITEMS,
    context: CONTEXT,
    evidence: evidence(),
    setup,
    model: createJudgeModel(setup, { env }),
    evidenceContextVersion: 'bench',
  });
  return { r, http: server.modelCalls().length };
}

/** The same number of sequential bare SDK calls (the judge's model client, no judge logic): the floor any judge pays. */
async function baseline(server: MockLlmServer, calls: number): Promise<number> {
  server.setScript({ rules: [], default: { text: 'ok', usage: { input: 10, output: 1 } } });
  const setup = judgeSetupSchema.parse({
    mode: 'per-item',
    provider: 'openai',
    model: 'bench',
    baseUrl: `${server.url}/v1`,
    apiKeyEnv: KEY_ENV,
  });
  const client = createJudgeModel(setup, { env, transportRetries: 0 });
  const t0 = performance.now();
  for (let i = 0; i < calls; i += 1)
    await client.complete({ system: 's', turns: [{ role: 'user', text: `call ${i}` }], tools: [] });
  const ms = performance.now() - t0;
  server.setScript(judgeScript());
  return ms;
}

async function table(latencyMs: number): Promise<void> {
  const rules =
    latencyMs > 0
      ? [{ name: 'latency', match: { any: /ITEM c-/ }, reply: judgeScript().rules[0]?.reply, delayMs: latencyMs }]
      : [];
  const server = await startMockLlm({ script: { rules: rules.length > 0 ? rules : judgeScript().rules } });
  const setScript = () => server.setScript({ rules: rules.length > 0 ? rules : judgeScript().rules });
  setScript();
  console.log(`\nmodel latency ${latencyMs} ms per call, ${ITEMS.length} criteria, ${ROUNDS} rounds (medians)`);
  console.log(
    '| mode | sessions | model calls | HTTP requests | per-item calls / mode calls | wall ms | in model ms (summed over concurrent sessions) | our overhead ms/criterion | baseline bare SDK ms/call | our overhead per criterion / baseline call |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  let perItemCalls = 0;
  for (const mode of MODES) {
    await runMode(server, mode); // warm-up
    const walls: number[] = [];
    const models: number[] = [];
    const bases: number[] = [];
    const overheads: number[] = [];
    let last: { r: JudgeRunResult; http: number } | null = null;
    for (let round = 0; round < ROUNDS; round += 1) {
      last = await runMode(server, mode);
      walls.push(last.r.stats.wallMs);
      models.push(last.r.stats.modelMs);
      overheads.push(
        (last.r.sessions.reduce((n, x) => n + (x.wallMs - x.modelMs), 0) + last.r.stats.bookkeepingMs) / ITEMS.length,
      );
      if (latencyMs === 0) {
        bases.push((await baseline(server, last.r.stats.modelCalls)) / last.r.stats.modelCalls);
        setScript();
      }
    }
    if (!last) continue;
    const s = last.r.stats;
    if (mode === 'per-item') perItemCalls = s.modelCalls;
    const wall = median(walls);
    const overhead = median(overheads);
    const base = bases.length > 0 ? median(bases) : NaN;
    const unjudged = s.unjudged > 0 ? ` (${s.unjudged} unjudged!)` : '';
    console.log(
      `| ${mode}${unjudged} | ${s.sessions} | ${s.modelCalls} | ${last.http} | ${(perItemCalls / s.modelCalls).toFixed(1)}x | ${wall.toFixed(1)} | ${median(models).toFixed(1)} | ${overhead.toFixed(3)} | ${Number.isNaN(base) ? '-' : base.toFixed(2)} | ${Number.isNaN(base) ? '-' : (overhead / base).toFixed(3)} |`,
    );
  }
  await server.close();
}

await table(0);
if (LATENCY > 0) await table(LATENCY);
