// The judge's bill per trial (#34): one realistic submission (a sample task's reference deliverables, parsed by
// assay's evidence extraction) judged over Anthropic Messages in each mode, against naive per-item judging with
// no prompt caching, in one run. The scripted server (packages/mock-llm) bills prompt caching by Anthropic's
// rules from the requests themselves (breakpoints, minimum length, TTL), so the figures measure the prompt
// layout, not a script. Each row starts from a cold cache, as one trial does.
//
//   npx tsx bench/judge/judge-bill-bench.ts [--task stem-sensor-calibration] [--model claude-sonnet-4-5]
//
// The scripted judge works as an agent judge does: it lists the files, reads each one, searches for each
// criterion's key term, then submits; its verdict follows from what the search found, so every mode must give
// the same verdicts (checked). "Billed tokens" prices cached reads and cache writes at the provider's discount
// and premium relative to its input price (input-equivalent tokens), plus the output.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { MODEL_PRICES, judgeSetupSchema, priceTokens, type ModelPrice } from '../../packages/core/src/index.js';
import { buildSubmissionView } from '../../packages/evidence/src/index.js';
import {
  createJudgeModel,
  judgeItems,
  type JudgeItem,
  type JudgeRunResult,
  type TokenUsage,
} from '../../packages/judge/src/index.js';
import { startMockLlm, type MockReply, type MockRequest } from '../../packages/mock-llm/src/index.js';
import { createEvidenceSource } from '../../packages/cli/src/worker/evidence-source.js';

const args = process.argv.slice(2);
const option = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? (args[i + 1] ?? dflt) : dflt;
};
const ROOT = path.resolve(import.meta.dirname, '../..');
const TASK = option('task', 'stem-sensor-calibration');
const MODEL = option('model', 'claude-sonnet-4-5');
const KEY_ENV = 'ASSAY_BENCH_JUDGE_KEY';
const env = { [KEY_ENV]: 'sk-bench-judge-0000' };

const taskDir = path.join(ROOT, 'datasets/sample/tasks', TASK);
const rubric = parse(readFileSync(path.join(taskDir, 'evaluator/rubric.yaml'), 'utf8')) as {
  items: { id: string; text: string; dimension?: string }[];
};
const ITEMS: JudgeItem[] = rubric.items.map((i) => ({ id: i.id, text: i.text, group: i.dimension ?? '' }));
const view = await buildSubmissionView(path.join(taskDir, 'evaluator/reference'));
const FILES = view.files.map((f) => f.path);

/** The criterion's search term: its longest word (a cell, a figure, a name). */
const termOf = (text: string) =>
  text
    .split(/[^A-Za-z0-9.!%-]+/)
    .filter((w) => w.length > 3)
    .sort((a, b) => b.length - a.length)[0] ?? text;

function itemsOf(req: MockRequest): JudgeItem[] {
  const first = req.messages.find((m) => m.role === 'user')?.text ?? '';
  const ids = new Set([...first.matchAll(/^ITEM (\S+): /gm)].map((m) => m[1]));
  return ITEMS.filter((i) => ids.has(i.id));
}

/** list_files, read_file on each file, search_text per criterion, then the verdicts the searches support. */
function billJudge(req: MockRequest): MockReply {
  const items = itemsOf(req);
  const call = (name: string, a: object) => ({ name, arguments: a });
  if (req.turn === 1) return { text: 'Listing the submission.', toolCalls: [call('list_files', {})] };
  if (req.turn === 2) return { toolCalls: FILES.map((p) => call('read_file', { path: p })) };
  if (req.turn === 3) return { toolCalls: items.map((i) => call('search_text', { query: termOf(i.text) })) };
  const lastAssistant = req.messages.map((m) => m.role).lastIndexOf('assistant');
  const found = req.messages
    .slice(lastAssistant + 1)
    .filter((m) => m.role === 'tool')
    .map((m) => m.text !== '(no matches)');
  const verdicts = items.map((i, k) => ({
    itemId: i.id,
    decision: found[k] ? 'satisfied' : 'not-satisfied',
    justification: found[k] ? `"${termOf(i.text)}" is in the submission.` : `No "${termOf(i.text)}" found.`,
    evidence: FILES.slice(0, 1),
  }));
  if (req.tools.includes('submit_verdicts'))
    return { toolCalls: [call('submit_verdicts', { verdicts })], stopReason: 'tool_calls' };
  const { itemId: _id, ...one } = verdicts[0] ?? { itemId: '', decision: 'not-satisfied', justification: '-' };
  return { toolCalls: [call('submit_verdict', { ...one, evidence: FILES.slice(0, 1) })], stopReason: 'tool_calls' };
}

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
      context: {
        taskId: TASK,
        title: TASK,
        request: readFileSync(path.join(taskDir, 'task.yaml'), 'utf8'),
      },
      evidence: createEvidenceSource(view, {
        pagesDir: path.join(os.tmpdir(), 'assay-bill-pages'),
        contextVersion: 'bench',
      }),
      setup,
      model: createJudgeModel(setup, { env }),
      evidenceContextVersion: 'bench',
    });
    return { name, r };
  } finally {
    await server.close();
  }
}

/** Input at the input price, with cached reads and writes at their relative prices; plus the output. */
function billedTokens(u: TokenUsage, price: ModelPrice): number {
  const rel = (p: number | undefined) => (p ?? price.inputPerMTok) / price.inputPerMTok;
  const plain = u.inputTokens - u.cachedInputTokens - u.cacheWriteInputTokens;
  return (
    plain +
    u.cachedInputTokens * rel(price.cachedInputPerMTok) +
    u.cacheWriteInputTokens * rel(price.cacheWritePerMTok) +
    u.outputTokens
  );
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
