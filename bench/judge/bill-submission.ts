// What the judge benches share: one realistic submission (a sample task's reference deliverables, parsed by
// assay's evidence extraction), its rubric, and a scripted judge that works as an agent judge does: it lists the
// files, reads each one, searches for each criterion's key term, then submits; its verdict follows from what the
// search found, so every mode and transport must give the same verdicts.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import type { ModelPrice } from '../../packages/core/src/index.js';
import { buildSubmissionView } from '../../packages/evidence/src/index.js';
import type { JudgeContext, JudgeItem, TokenUsage } from '../../packages/judge/src/index.js';
import type { MockReply, MockRequest } from '../../packages/mock-llm/src/index.js';
import { createEvidenceSource } from '../../packages/cli/src/worker/evidence-source.js';

export const args = process.argv.slice(2);
export const option = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? (args[i + 1] ?? dflt) : dflt;
};
export const ROOT = path.resolve(import.meta.dirname, '../..');
export const TASK = option('task', 'stem-sensor-calibration');
export const MODEL = option('model', 'claude-sonnet-5-5');
export const KEY_ENV = 'ASSAY_BENCH_JUDGE_KEY';
export const env = { [KEY_ENV]: 'sk-bench-judge-0000' };

const taskDir = path.join(ROOT, 'datasets/sample/tasks', TASK);
const rubric = parse(readFileSync(path.join(taskDir, 'evaluator/rubric.yaml'), 'utf8')) as {
  items: { id: string; text: string; dimension?: string }[];
};
export const ITEMS: JudgeItem[] = rubric.items.map((i) => ({ id: i.id, text: i.text, group: i.dimension ?? '' }));
const view = await buildSubmissionView(path.join(taskDir, 'evaluator/reference'));
export const FILES = view.files.map((f) => f.path);

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
export function billJudge(req: MockRequest): MockReply {
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

export const CONTEXT: JudgeContext = {
  taskId: TASK,
  title: TASK,
  request: readFileSync(path.join(taskDir, 'task.yaml'), 'utf8'),
};

/** The submission's evidence, as the judge reads it. */
export const evidenceOf = () =>
  createEvidenceSource(view, { pagesDir: path.join(os.tmpdir(), 'assay-bill-pages'), contextVersion: 'bench' });

/** Input at the input price, with cached reads and writes at their relative prices; plus the output. */
export function billedTokens(u: TokenUsage, price: ModelPrice): number {
  const rel = (p: number | undefined) => (p ?? price.inputPerMTok) / price.inputPerMTok;
  const plain = u.inputTokens - u.cachedInputTokens - u.cacheWriteInputTokens;
  return (
    plain +
    u.cachedInputTokens * rel(price.cachedInputPerMTok) +
    u.cacheWriteInputTokens * rel(price.cacheWritePerMTok) +
    u.outputTokens
  );
}
