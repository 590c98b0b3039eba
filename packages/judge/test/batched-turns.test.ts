// Batch judging turn by turn: rounds that replay the sessions with the replies known so far, each
// round's deferred turns sent as one batch through the scripted server's batch APIs (real SDKs),
// end with the verdicts live judging gives, in as many rounds as a session has turns.
import { judgeSetupSchema, type JudgeSetup } from '@assay/core';
import { startMockLlm, type MockLlmServer, type MockScript } from '@assay/mock-llm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createJudgeBatchClient,
  createBatchedTurnModel,
  createJudgeModel,
  judgeItems,
  parseAnswer,
  parseTurn,
  serializeAnswer,
  serializeTurn,
  runBatchRounds,
  createMemoryVerdictCache,
  withHeldWrites,
  withSingleFlight,
  type TurnBook,
  type JudgeRunResult,
} from '../src/index.js';
import { CONTEXT, ITEMS, KEY_ENV, env, evidence, judgeScript } from './fixtures.js';

let server: MockLlmServer;
let clock = 1_700_000_000_000;
const withBatch = (s: MockScript): MockScript => ({ ...s, batch: { delayMs: 60_000 } });

beforeAll(async () => {
  server = await startMockLlm({ script: withBatch(judgeScript()), now: () => clock });
});
afterAll(() => server.close());
beforeEach(() => {
  server.setScript(withBatch(judgeScript()));
  server.clearRecords();
  server.promptCache.clear();
});

type Provider = 'openai' | 'anthropic';

function setup(provider: Provider, over: Partial<JudgeSetup> = {}): JudgeSetup {
  return judgeSetupSchema.parse({
    provider,
    model: provider === 'openai' ? 'judge-model' : 'claude-judge',
    baseUrl: provider === 'openai' ? `${server.url}/v1` : server.url,
    apiKeyEnv: KEY_ENV,
    ...over,
  });
}

const judgeWith = (s: JudgeSetup, model = createJudgeModel(s, { env })) =>
  judgeItems({ items: ITEMS, context: CONTEXT, evidence: evidence(), setup: s, model, evidenceContextVersion: 't/1' });

/** Rounds until nothing is deferred, the scripted batch delay passed on the server's clock between polls. */
async function judgeInBatches(s: JudgeSetup): Promise<{ run: JudgeRunResult; batches: number[] }> {
  const live = createJudgeModel(s, { env });
  const client = createJudgeBatchClient(s, { env, transportRetries: 0 });
  const wait = () => {
    clock += 60_000;
    return Promise.resolve();
  };
  const judge = (book: TurnBook) => judgeWith(s, createBatchedTurnModel(live, book));
  const { result, rounds } = await runBatchRounds({ client, judge, key: 'test', wait });
  return { run: result, batches: rounds.map((r) => r.turns) };
}

const decisions = (r: JudgeRunResult) => r.verdicts.map((v) => [v.itemId, v.decision, v.reason, v.evidence]);

describe.each(['openai', 'anthropic'] as const)('batch judging over %s', (provider) => {
  it.each(['per-item', 'batched'] as const)('%s: the verdicts of live judging, one batch per turn', async (mode) => {
    const live = await judgeWith(setup(provider, { mode }));
    const liveCalls = server.modelCalls().length;
    server.clearRecords();
    const batchesBefore = server.batches.length;
    const { run, batches } = await judgeInBatches(setup(provider, { mode }));
    expect(decisions(run)).toEqual(decisions(live));
    expect(run.deferred).toBeUndefined();
    // The scripted judge searches, then submits: two turns per session, so two batches holding every call.
    const sessions = mode === 'per-item' ? 24 : 3;
    expect(batches).toEqual([sessions, sessions]);
    expect(batches[0]! + batches[1]!).toBe(liveCalls);
    expect(server.batches.length - batchesBefore).toBe(2);
    expect(run.sessions).toHaveLength(sessions);
    expect(run.stats.usage.inputTokens).toBe(live.stats.usage.inputTokens);
    expect(run.verdicts.every((v) => v.judge?.batch === true && v.judge.reused === false)).toBe(true);
  });

  it('a turn the batch failed is retried as the next attempt in the next batch, or stays visibly unjudged', async () => {
    // c-03's first search turn fails inside the batch (a per-request error, not the whole batch).
    const failOnce = () =>
      server.setScript(
        withBatch(judgeScript([{ name: 'fail-once', match: { any: /ITEM c-03:/ }, times: 1, fault: { kind: '500' } }])),
      );
    failOnce();
    const retried = await judgeInBatches(setup(provider, { mode: 'per-item', attempts: 2 }));
    // Round 2: 23 second turns and c-03's second attempt; round 3: that attempt's second turn.
    expect(retried.batches).toEqual([24, 24, 1]);
    const c3 = retried.run.verdicts.find((v) => v.itemId === 'c-03');
    expect(c3).toMatchObject({ source: 'judge', judge: { attempts: 2 } });

    failOnce();
    const once = await judgeInBatches(setup(provider, { mode: 'per-item', attempts: 1 }));
    expect(once.batches).toEqual([24, 23]);
    expect(once.run.verdicts.find((v) => v.itemId === 'c-03')).toMatchObject({
      decision: 'unjudged',
      unjudgedReason: 'model-error',
    });
  });
});

it("identical submissions make one session's calls: the second waits on the first and reuses its verdicts", async () => {
  const s = setup('openai', { mode: 'per-item' });
  const live = createJudgeModel(s, { env });
  const store = createMemoryVerdictCache();
  let commit = async () => {};
  const judge = async (book: TurnBook) => {
    // One held cache per round, shared by both submissions (as the collect activity's judge factory shares it).
    const cache = withHeldWrites(withSingleFlight(store));
    commit = () => cache.commit();
    const one = () =>
      judgeItems({
        items: ITEMS,
        context: CONTEXT,
        evidence: evidence(),
        setup: s,
        model: createBatchedTurnModel(live, book),
        cache,
        evidenceContextVersion: 't/1',
      });
    return Promise.all([one(), one()]);
  };
  const wait = () => {
    clock += 60_000;
    return Promise.resolve();
  };
  const client = createJudgeBatchClient(s, { env, transportRetries: 0 });
  const { result, rounds } = await runBatchRounds({ client, judge, key: 'twins', wait });
  await commit();
  expect(rounds.map((r) => r.turns)).toEqual([24, 24]);
  const [a, b] = result;
  expect(a?.verdicts.every((v) => v.judge?.reused === false && v.judge.batch === true)).toBe(true);
  expect(b?.verdicts.every((v) => v.judge?.reused === true)).toBe(true);
  expect(b?.verdicts.map((v) => [v.itemId, v.decision, v.reason])).toEqual(
    a?.verdicts.map((v) => [v.itemId, v.decision, v.reason]),
  );
  // Committed once the judging is done: a later run reuses every verdict.
  expect(await store.get(a?.verdicts[0]?.judge?.cacheKey ?? '')).toMatchObject({ decision: a?.verdicts[0]?.decision });
});

it('an expired batch leaves its turns failed: the items stay visibly unjudged, never a verdict', async () => {
  server.setScript({ ...judgeScript(), batch: { delayMs: 60_000, expire: true } });
  const { run, batches } = await judgeInBatches(setup('anthropic', { mode: 'batched', attempts: 1 }));
  // The 3 batch sessions' turns expire; the one-item fallback sessions go in the next batch, which expires too.
  expect(batches).toEqual([3, 24]);
  expect(run.verdicts.every((v) => v.decision === 'unjudged' && v.unjudgedReason === 'model-error')).toBe(true);
  expect(run.verdicts[0]?.reason).toContain('the batched judge turn expired');
});

it('a deferred turn keeps its page images through the JSONL round trip', () => {
  const image = new Uint8Array([137, 80, 78, 71, 0, 255]);
  const line = serializeTurn('t1-0', {
    system: 's',
    tools: [],
    turns: [
      { role: 'user', text: 'u', sharedChars: 1 },
      { role: 'tool-results', results: [{ callId: 'a', name: 'view_page', text: 'page 1', image }] },
    ],
  });
  const back = parseTurn(line);
  const answer = { kind: 'expired' as const, error: 'expired' };
  expect(parseAnswer(serializeAnswer('t1-0', answer))).toEqual({ customId: 't1-0', result: answer });
  expect(back.request.turns[1]).toEqual({
    role: 'tool-results',
    results: [{ callId: 'a', name: 'view_page', text: 'page 1', image }],
  });
});
