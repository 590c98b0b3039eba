// The judge's bill per trial (#34): one realistic submission (a sample task's reference deliverables, parsed by
// assay's evidence extraction) judged over Anthropic Messages in each mode, against naive per-item judging with
// no prompt caching, in one run. The scripted server (packages/mock-llm) bills prompt caching by Anthropic's
// rules from the requests themselves (breakpoints, minimum length, TTL), so the figures measure the prompt
// layout, not a script. Each row starts from a cold cache, as one trial does.
//
//   npx tsx bench/judge/judge-bill-bench.ts [--task stem-sensor-calibration] [--model claude-sonnet-5-5]
//
// The submission and the scripted judge are bill-submission.ts's; every mode must give the same verdicts (checked). "Billed tokens" prices cached reads and cache writes at the provider's discount
// and premium relative to its input price (input-equivalent tokens), plus the output.
import { MODEL_PRICES, judgeSetupSchema, priceTokens } from '../../packages/core/src/index.js';
import { createJudgeModel, judgeItems, type JudgeRunResult } from '../../packages/judge/src/index.js';
import { startMockLlm } from '../../packages/mock-llm/src/index.js';
import {
  CONTEXT,
  FILES,
  ITEMS,
  KEY_ENV,
  MODEL,
  TASK,
  billJudge,
  billedTokens,
  env,
  evidenceOf,
} from './bill-submission.js';

interface Row {
  name: string;
  r: JudgeRunResult;
}

async function judgeOnce(name: string, mode: string, promptCache: boolean): Promise<Row> {
  // A fresh server per row: a cold cache, as a trial's first judging.
  const server = await startMockLlm({ script: { rules: [], default: billJudge } });
  try {
    const setup = judgeSetupSchema.parse({
      mode,
      provider: 'anthropic',
      model: MODEL,
      baseUrl: server.url,
      apiKeyEnv: KEY_ENV,
      promptCache,
      maxSteps: 10,
    });
    const r = await judgeItems({
      items: ITEMS,
      context: CONTEXT,
      evidence: evidenceOf(),
      setup,
      model: createJudgeModel(setup, { env }),
      evidenceContextVersion: 'bench',
    });
    return { name, r };
  } finally {
    await server.close();
  }
}

const price = MODEL_PRICES[MODEL];
if (!price) throw new Error(`no price for ${MODEL} in packages/core/src/model-prices.ts: pass --model`);
const rows = [
  await judgeOnce('naive per-item (no caching)', 'per-item', false),
  await judgeOnce('per-item', 'per-item', true),
  await judgeOnce('batched', 'batched', true),
  await judgeOnce('holistic', 'holistic', true),
];
const naive = rows[0] as Row;
const decisions = (r: JudgeRunResult) => JSON.stringify(r.verdicts.map((v) => [v.itemId, v.decision]));
const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

console.log(
  `\n${TASK}: ${ITEMS.length} criteria, ${FILES.length} files (${FILES.join(', ')}), judge ${MODEL} ` +
    `($${price.inputPerMTok} in, $${price.cachedInputPerMTok ?? price.inputPerMTok} cached read, ` +
    `$${price.cacheWritePerMTok ?? price.inputPerMTok} cache write, $${price.outputPerMTok} out per MTok)\n`,
);
console.log(
  '| mode | sessions | model calls | input tokens | cache read | cache write | output | cached share | billed tokens | vs naive | $ per trial | $ vs naive | verdicts = naive |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
const naiveBilled = billedTokens(naive.r.stats.usage, price);
const naiveUsd = priceTokens(naive.r.stats.usage, price);
for (const { name, r } of rows) {
  const u = r.stats.usage;
  const billed = billedTokens(u, price);
  const usd = priceTokens(u, price);
  console.log(
    `| ${name} | ${r.stats.sessions} | ${r.stats.modelCalls} | ${fmt(u.inputTokens)} | ${fmt(u.cachedInputTokens)} | ` +
      `${fmt(u.cacheWriteInputTokens)} | ${fmt(u.outputTokens)} | ${fmt((100 * u.cachedInputTokens) / u.inputTokens, 1)}% | ` +
      `${fmt(billed)} | ${fmt(billed / naiveBilled, 3)} | ${fmt(usd, 4)} | ${fmt(usd / naiveUsd, 3)} | ` +
      `${decisions(r) === decisions(naive.r) ? 'yes' : 'NO'} |`,
  );
}
