// The activities of batch judging (workflows/src/judge-batch-workflow.ts), over clients the worker
// injects: the setup's provider batch client and its live model's identity. A round's files are in the
// judge folder's batches/<run>/round-<n>/ (a live job's `judge.batch`: the results' judge-batches/<run>/...):
// turns.jsonl (what collect deferred), batch.json (the batch id, stored as soon as the provider answers)
// and answers.jsonl (one answer or failure per turn).
import path from 'node:path';
import { Context } from '@temporalio/activity';
import { holdForFaultInjection } from '@assay/activities';
import { batchPriceOf, type JudgeSetup } from '@assay/core';
import { createExtractionCache, type ParserPool } from '@assay/evidence';
import {
  createBatchedTurnModel,
  AWAITING_BATCH,
  createTurnBook,
  isBatchFailure,
  judgeCost,
  parseAnswer,
  parseTurn,
  serializeAnswer,
  serializeTurn,
  sumJudgeCosts,
  withHeldWrites,
  type BatchClient,
  type BatchResult,
  type JudgeCost,
  type JudgeModel,
} from '@assay/judge';
import {
  EVIDENCE_CACHE_DIR,
  judgeRootKey,
  openResultsStore,
  readProjectRecords,
  readTrialRecords,
  scratchRootOf,
} from '@assay/results';
import type { JudgeBatchActivities, RoundRef } from '@assay/workflows/judge-batch';
import { jobPricesOf, loadJobOrFail } from '../job-input.js';
import { finishRejudging, rejudgeRecords, rejudgingOf } from '../rejudge-job.js';
import { createJudgeFactory } from './create-judge-factory.js';
import { createEvidenceTools } from './evidence-tools.js';

export interface JudgeBatchDeps {
  root: string;
  batchClientFor: (setup: JudgeSetup) => BatchClient;
  /** The setup's live model: its identity (provider, model, sampling) is the batched turns' identity. */
  liveModelFor: (setup: JudgeSetup) => JudgeModel;
  parsers: ParserPool;
  log: (line: string) => void;
  /**
   * Chaos tests: `judge-submitted` holds a submit once the provider answered, before its batch id is stored;
   * `judge-submit` after it is stored, before the activity ends.
   */
  faults?: Record<string, number>;
}

type InputOf<K extends keyof JudgeBatchActivities> = Parameters<JudgeBatchActivities[K]>[0];

export function createJudgeBatchActivities(deps: JudgeBatchDeps) {
  return {
    collectJudgeTurns: (input: InputOf<'collectJudgeTurns'>) => collectJudgeTurns(deps, input),
    submitJudgeBatch: (input: InputOf<'submitJudgeBatch'>) => submitJudgeBatch(deps, input),
    awaitJudgeBatch: (input: InputOf<'awaitJudgeBatch'>) => awaitJudgeBatch(deps, input),
  } satisfies JudgeBatchActivities;
}

// In place (a live job's `judge.batch`), beside the job's own records; else in the judge folder.
const runFolder = (r: Pick<RoundRef, 'run' | 'inPlace'>) => `${r.inPlace ? 'judge-batches' : 'batches'}/${r.run}`;
const roundFolder = (r: RoundRef) => `${runFolder(r)}/round-${String(r.round).padStart(4, '0')}`;

/** Where the round's records go: the job's own results (in place), or its judge folder for the name. */
function judgeFolder(deps: JudgeBatchDeps, r: RoundRef) {
  const job = loadJobOrFail(r.jobFile, deps.root);
  const store = openResultsStore(job.resultsDir);
  return { job, store, out: r.inPlace ? store : store.scoped(judgeRootKey(r.name)) };
}

/** In place, only what the live run left awaiting the batch: a record judged already keeps its verdicts. */
function awaitsBatch(record: unknown): boolean {
  const r = record as { verdicts?: unknown; checkpoints?: { verdicts?: unknown }[]; final?: { verdicts?: unknown } };
  const lists = [r.verdicts, r.final?.verdicts, ...(r.checkpoints ?? []).map((c) => c.verdicts)];
  return lists.some(
    (l) =>
      Array.isArray(l) &&
      l.some((v: { judge?: { unjudgedReason?: unknown } }) => v.judge?.unjudgedReason === AWAITING_BATCH),
  );
}

async function collectJudgeTurns(deps: JudgeBatchDeps, input: RoundRef & { concurrency: number }) {
  const { job, store, out } = judgeFolder(deps, input);
  const book = createTurnBook(await readAnswers(out, input));
  const live = deps.liveModelFor(input.setup);
  const costs: JudgeCost[] = [];
  const price = jobPricesOf(job)[live.model];
  const held: { commit(): Promise<void> }[] = [];
  const extraction = createExtractionCache({ dir: path.join(scratchRootOf(job.resultsDir), EVIDENCE_CACHE_DIR) });
  let scratch = '';
  // Submissions whose judging waits on a batched turn (its own, or another submission's with the same verdict key).
  const waitingDirs: string[] = [];
  const judgeFor = createJudgeFactory({
    log: deps.log,
    parsers: deps.parsers,
    extraction,
    onRun: (run, at) => {
      costs.push(judgeCost(run, price && batchPriceOf(price, live.provider)));
      if (run.deferred) waitingDirs.push(path.relative(scratch, at.submissionDir));
    },
    model: () => createBatchedTurnModel(live, book),
    wrapCache: (cache) => {
      const h = withHeldWrites(cache);
      held.push(h);
      return h;
    },
  });
  const tools = {
    evidence: createEvidenceTools(deps.parsers, extraction),
    // The live model's setup: `batch` would make it the judge that leaves everything awaiting the batch.
    judge: judgeFor({ ...input.setup, batch: false }, { resultsDir: job.resultsDir }),
  };
  const base = rejudgingOf(job, { store, out, name: input.name, setup: input.setup, tools });
  scratch = base.scratch;
  const waiting = (dir: string) => {
    const rel = path.relative(scratch, dir);
    return waitingDirs.some((s) => s === rel || s.startsWith(`${rel}${path.sep}`));
  };
  const ctx = { ...base, print: deps.log, keep: (dir: string) => !waiting(dir) };
  const mine = <R>(rs: R[]) => (input.inPlace ? rs.filter(awaitsBatch) : rs);
  const records = {
    trials: mine(await readTrialRecords(store, { problems: [] })),
    projects: mine(await readProjectRecords(store, { problems: [] })),
  };
  const kept = await rejudgeRecords(ctx, records, input.concurrency);
  const written = kept.trials.length + kept.projects.length;
  if (book.deferred.size === 0 && waitingDirs.length === 0) {
    for (const h of held) await h.commit();
    if (!input.inPlace) await finishRejudging(ctx, job);
    await out.putJson(`${runFolder(input)}/cost.json`, sumJudgeCosts(costs));
    return { deferred: 0, written };
  }
  const lines = [...book.deferred].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, req]) => serializeTurn(k, req));
  await out.putText(`${roundFolder(input)}/turns.jsonl`, `${lines.join('\n')}\n`);
  return { deferred: lines.length, written };
}

/** Every answer of the run's earlier rounds, by turn key. */
async function readAnswers(out: ReturnType<typeof openResultsStore>, r: RoundRef): Promise<Map<string, BatchResult>> {
  const answers = new Map<string, BatchResult>();
  for (const key of await out.list(runFolder(r))) {
    if (!key.endsWith('/answers.jsonl')) continue;
    for (const line of ((await out.getText(key)) ?? '').split('\n')) {
      if (!line) continue;
      const a = parseAnswer(line);
      answers.set(a.customId, a.result);
    }
  }
  return answers;
}

async function readTurnKeys(out: ReturnType<typeof openResultsStore>, r: RoundRef) {
  const text = (await out.getText(`${roundFolder(r)}/turns.jsonl`)) ?? '';
  return text.split('\n').filter((l) => l.length > 0);
}

async function submitJudgeBatch(deps: JudgeBatchDeps, input: RoundRef & { key: string }) {
  const { out } = judgeFolder(deps, input);
  const stored = `${roundFolder(input)}/batch.json`;
  const known = (await out.getJson(stored)) as { batchId?: string } | null;
  if (known?.batchId) return { batchId: known.batchId, found: true };
  const client = deps.batchClientFor(input.setup);
  const found = await client.find(input.key);
  if (found) {
    await out.putJson(stored, { batchId: found.batchId, key: input.key, foundAt: new Date().toISOString() });
    return { batchId: found.batchId, found: true };
  }
  const entries = (await readTurnKeys(out, input)).map(parseTurn);
  const { batchId } = await client.submit(entries, { key: input.key });
  // Anthropic's batches carry no key: a worker lost right here leaves a batch only OpenAI's `find` can recognise.
  await holdForFaultInjection(deps.faults?.['judge-submitted'] ?? 0);
  // Before anything else: a retry of this activity reads it here instead of submitting again.
  await out.putJson(stored, { batchId, key: input.key, turns: entries.length, submittedAt: new Date().toISOString() });
  await holdForFaultInjection(deps.faults?.['judge-submit'] ?? 0);
  return { batchId, found: false };
}

async function awaitJudgeBatch(deps: JudgeBatchDeps, input: RoundRef & { batchId: string; pollSeconds: number }) {
  const { out } = judgeFolder(deps, input);
  const client = deps.batchClientFor(input.setup);
  const ctx = Context.current();
  for (let polls = 1; ; polls += 1) {
    const status = await client.poll(input.batchId);
    ctx.heartbeat({ batchId: input.batchId, polls, counts: status.counts });
    if (status.status === 'ended') break;
    await ctx.sleep(input.pollSeconds * 1000);
  }
  const results = await client.results(input.batchId);
  const ended = { succeeded: 0, failed: 0, missing: 0 };
  const lines = (await readTurnKeys(out, input)).map((line) => {
    const { customId } = parseTurn(line);
    const result = results.get(customId);
    if (!result) ended.missing += 1;
    else if (isBatchFailure(result)) ended.failed += 1;
    else ended.succeeded += 1;
    // A turn the batch never ran fails like one it ran and lost: its session's next attempt goes in the next batch.
    return serializeAnswer(customId, result ?? { kind: 'errored', error: 'the batch did not run this turn' });
  });
  await out.putText(`${roundFolder(input)}/answers.jsonl`, `${lines.join('\n')}\n`);
  return ended;
}
