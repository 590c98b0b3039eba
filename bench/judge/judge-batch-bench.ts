// Batch judging against live judging (#34): bill-submission.ts's submission and scripted agent judge, over
// Anthropic, live (Messages) and through the Message Batches API of the scripted server, turn by turn across
// all open sessions (runBatchRounds, the rounds `assay judge --batch` runs on Temporal), in one run. Each row
// starts from a cold prompt cache. Batches end after a scripted delay on the server's clock, which the bench
// advances, so "replay ms" is this machine's own cost of batching (each round replays every session with the
// answers known so far) and the wall clock is rounds x the provider's turnaround plus that.
//
//   npx tsx bench/judge/judge-batch-bench.ts [--task stem-sensor-calibration] [--model claude-sonnet-5-5] [--trials 10]
import { MODEL_PRICES, batchPriceOf, judgeSetupSchema, priceTokens } from '../../packages/core/src/index.js';
import {
  createBatchedTurnModel,
  createJudgeBatchClient,
  createJudgeModel,
  judgeItems,
  runBatchRounds,
  type JudgeModel,
  type JudgeRunResult,
  type TokenUsage,
} from '../../packages/judge/src/index.js';
import { startMockLlm } from '../../packages/mock-llm/src/index.js';
import { CONTEXT, ITEMS, KEY_ENV, MODEL, TASK, billJudge, env, evidenceOf, option } from './bill-submission.js';

const TRIALS = Number(option('trials', '10'));
const price = MODEL_PRICES[MODEL];
if (!price) throw new Error(`no price for ${MODEL} in packages/core/src/model-prices.ts: pass --model`);

interface Row {
  name: string;
  trials: number;
  runs: JudgeRunResult[];
  rounds: number[];
  replayMs: number;
  usd: number;
}

const setupOf = (mode: string, baseUrl: string) =>
  judgeSetupSchema.parse({ mode, provider: 'anthropic', model: MODEL, baseUrl, apiKeyEnv: KEY_ENV, maxSteps: 10 });

/** `trials` copies of the submission judged at once, as the trials of one job. */
const judgeTrials = (setup: ReturnType<typeof setupOf>, trials: number, modelOf: (t: number) => JudgeModel) =>
  Promise.all(
    Array.from({ length: trials }, (_, t) =>
      judgeItems({
        items: ITEMS,
        context: CONTEXT,
        evidence: evidenceOf(),
        setup,
        model: modelOf(t),
        evidenceContextVersion: 'bench',
      }),
    ),
  );

const sumUsage = (runs: readonly JudgeRunResult[]): TokenUsage => {
  const u = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteInputTokens: 0 };
  for (const r of runs) for (const k of Object.keys(u) as (keyof TokenUsage)[]) u[k] += r.stats.usage[k];
  return u;
};

async function live(mode: string, trials: number): Promise<Row> {
  const server = await startMockLlm({ script: { rules: [], default: billJudge } });
  try {
    const setup = setupOf(mode, server.url);
    const t0 = performance.now();
    const runs = await judgeTrials(setup, trials, () => createJudgeModel(setup, { env }));
    const usd = priceTokens(sumUsage(runs), price!);
    return { name: `${mode}, live`, trials, runs, rounds: [], replayMs: performance.now() - t0, usd };
  } finally {
    await server.close();
  }
}

async function batch(mode: string, trials: number): Promise<Row> {
  let clock = 1_800_000_000_000;
  // Ten minutes a batch: longer than the 5-minute prompt cache, which expires between rounds.
  const delayMs = 600_000;
  const server = await startMockLlm({
    script: { rules: [], default: billJudge, batch: { delayMs } },
    now: () => clock,
  });
  try {
    const setup = setupOf(mode, server.url);
    const identity = createJudgeModel(setup, { env });
    const wait = () => {
      clock += delayMs;
      return Promise.resolve();
    };
    const out = await runBatchRounds({
      client: createJudgeBatchClient(setup, { env }),
      key: `bench-${mode}`,
      wait,
      judge: (book) => judgeTrials(setup, trials, () => createBatchedTurnModel(identity, book)),
    });
    const replayMs = out.rounds.reduce((n, r) => n + r.replayMs, out.replayMs);
    const usd = priceTokens(sumUsage(out.result), batchPriceOf(price!, 'anthropic'));
    const rounds = out.rounds.map((r) => r.turns);
    return { name: `${mode}, batch`, trials, runs: out.result, rounds, replayMs, usd };
  } finally {
    await server.close();
  }
}

const decisions = (runs: readonly JudgeRunResult[]) =>
  JSON.stringify(runs.map((r) => r.verdicts.map((v) => [v.itemId, v.decision, v.reason])));
const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

console.log(
  `\n${TASK}: ${ITEMS.length} criteria, judge ${MODEL} (batch at ${fmt(100 * (batchPriceOf(price, 'anthropic').inputPerMTok / price.inputPerMTok))}% of the price)\n`,
);
console.log(
  '| mode, transport | trials | model calls | input tokens | cached share | rounds (turns per batch) | $ | $ vs live | replay ms | wall at 10 min/batch | verdicts = live |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const [mode, trials] of [
  ['per-item', 1],
  ['batched', 1],
  ['per-item', TRIALS],
] as const) {
  const a = await live(mode, trials);
  const b = await batch(mode, trials);
  for (const row of [a, b]) {
    const u = sumUsage(row.runs);
    const calls = row.runs.reduce((n, r) => n + r.stats.modelCalls, 0);
    const wall = row.rounds.length > 0 ? `${fmt((row.rounds.length * 600_000 + row.replayMs) / 60_000, 1)} min` : '-';
    console.log(
      `| ${row.name} | ${row.trials} | ${calls} | ${fmt(u.inputTokens)} | ${fmt((100 * u.cachedInputTokens) / u.inputTokens, 1)}% | ` +
        `${row.rounds.length > 0 ? `${row.rounds.length} (${row.rounds.join(', ')})` : '-'} | ${fmt(row.usd, 4)} | ` +
        `${fmt(row.usd / a.usd, 3)} | ${fmt(row.replayMs)} | ${wall} | ${decisions(row.runs) === decisions(a.runs) ? 'yes' : 'NO'} |`,
    );
  }
}
