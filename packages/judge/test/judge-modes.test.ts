// Each mode over real HTTP against the scripted server, through the official SDKs.
import { judgeSetupSchema, type JudgeSetup } from '@assay/core';
import { startMockLlm, type MockLlmServer } from '@assay/mock-llm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createJudgeModel, judgeItems, PROMPT_VERSION, type JudgeRunResult } from '../src/index.js';
import { CONTEXT, ITEMS, KEY, KEY_ENV, env, evidence, judgeScript, scriptedJudge, truth } from './fixtures.js';

let server: MockLlmServer;

beforeAll(async () => {
  server = await startMockLlm({ script: judgeScript() });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.setScript(judgeScript());
  server.clearRecords();
});

function setup(over: Partial<JudgeSetup>): JudgeSetup {
  return judgeSetupSchema.parse({
    provider: 'openai',
    model: 'judge-model',
    baseUrl: `${server.url}/v1`,
    apiKeyEnv: KEY_ENV,
    seed: 7,
    ...over,
  });
}

async function run(s: JudgeSetup): Promise<JudgeRunResult> {
  return judgeItems({
    items: ITEMS,
    context: CONTEXT,
    evidence: evidence(),
    setup: s,
    model: createJudgeModel(s, { env }),
    evidenceContextVersion: 'test/1',
  });
}

function expectTruth(r: JudgeRunResult) {
  const t = truth();
  expect(r.verdicts.map((v) => [v.itemId, v.decision])).toEqual(ITEMS.map((i) => [i.id, t.get(i.id)]));
  expect(r.verdicts.every((v) => v.source === 'judge' && v.reason.length > 0)).toBe(true);
}

describe('judge modes', () => {
  it('per-item: one session per criterion, right verdicts, identity and exact tokens', async () => {
    const r = await run(setup({ mode: 'per-item' }));
    expectTruth(r);
    expect(r.sessions).toHaveLength(24);
    expect(server.modelCalls('openai-chat')).toHaveLength(48);
    const v = r.verdicts[0];
    expect(v?.judge).toMatchObject({
      provider: 'openai',
      model: 'judge-model',
      promptVersion: PROMPT_VERSION,
      mode: 'per-item',
      phase: 'per-item',
      temperature: 0,
      seed: 7,
      attempts: 1,
      reused: false,
      // The mock names the model it was asked for.
      reportedModel: 'judge-model',
    });
    expect(v?.evidence[0]).toMatch(/^q3-review\.md line \d+$/);
    const served = server.totalUsage();
    expect(r.stats.usage).toEqual({
      inputTokens: served.input,
      outputTokens: served.output,
      cachedInputTokens: served.cachedInput,
      cacheWriteInputTokens: 0,
    });
    const perVerdict = r.verdicts.reduce((n, x) => n + (x.judge?.usage.inputTokens ?? 0), 0);
    expect(perVerdict).toBeCloseTo(served.input, 6);
    // Temperature and seed reach the wire.
    expect(server.modelCalls()[0]?.body).toMatchObject({ temperature: 0, seed: 7, model: 'judge-model' });
  });

  it('batched: ~8x fewer calls than per-item on 24 criteria, same verdicts', async () => {
    const r = await run(setup({ mode: 'batched' }));
    expectTruth(r);
    expect(r.sessions.map((s) => s.itemIds.length)).toEqual([8, 8, 8]);
    const batchedCalls = server.modelCalls().length;
    expect(batchedCalls).toBe(6);
    expect(48 / batchedCalls).toBe(8);
    expect(r.verdicts.every((v) => v.judge?.phase === 'batch' && v.judge.mode === 'batched')).toBe(true);
  });

  it('batched over Anthropic Messages gives the same verdicts', async () => {
    const s = setup({ mode: 'batched', provider: 'anthropic', model: 'claude-judge', baseUrl: server.url });
    const r = await run(s);
    expectTruth(r);
    expect(server.modelCalls('anthropic')).toHaveLength(6);
    expect(r.identity).toMatchObject({ provider: 'anthropic', temperature: null, seed: null });
    const served = server.totalUsage();
    expect(r.stats.usage.inputTokens).toBe(served.input);
    expect(r.stats.usage.cachedInputTokens).toBe(served.cachedInput);
  });

  it.each([
    ['openai', 'judge-model', '/v1'],
    ['anthropic', 'claude-judge', ''],
  ] as const)(
    '%s: each verdict names the model the provider reported in the reply that decided it',
    async (provider, model, path) => {
      // The provider serves another model than the one asked for, and names yet another on the search turn.
      const served = (req: Parameters<typeof scriptedJudge>[0]) => ({
        ...scriptedJudge(req),
        model: req.turn === 1 ? 'searcher-0' : 'served-judge-2',
      });
      server.setScript(judgeScript([{ name: 'served', match: { any: /ITEM c-/ }, reply: served }]));
      const r = await run(setup({ mode: 'batched', provider, model, baseUrl: `${server.url}${path}` }));
      expectTruth(r);
      expect(r.verdicts.every((v) => v.judge?.model === model && v.judge.reportedModel === 'served-judge-2')).toBe(
        true,
      );
      expect(server.modelCalls().every((c) => c.model === model)).toBe(true);
    },
  );

  it('holistic: one session for all criteria', async () => {
    const r = await run(setup({ mode: 'holistic' }));
    expectTruth(r);
    expect(r.sessions).toHaveLength(1);
    expect(server.modelCalls()).toHaveLength(2);
    expect(r.stats.malformedReplies).toBe(0);
  });

  it('holistic: malformed replies are counted and retried within the attempt bound', async () => {
    // Two plain-text answers (no tool call), then one submission that covers only half the items.
    server.setScript(
      judgeScript([
        {
          name: 'prose',
          match: { any: /ITEM c-/, turn: { min: 2 } },
          times: 2,
          reply: { text: 'All criteria look satisfied to me.' },
        },
        {
          name: 'half',
          match: { any: /ITEM c-/, turn: { min: 2 } },
          times: 1,
          reply: {
            toolCalls: [
              {
                name: 'submit_verdicts',
                arguments: {
                  verdicts: [
                    { itemId: 'c-01', decision: 'satisfied', justification: 'seen', evidence: [] },
                    { itemId: 'c-99', decision: 'satisfied', justification: 'made up', evidence: [] },
                  ],
                },
              },
            ],
          },
        },
      ]),
    );
    const r = await run(setup({ mode: 'holistic', attempts: 3 }));
    // Attempt 1: prose, correction, prose again -> malformed. Attempt 2: partial with an unknown id (counted). Attempt 3: complete.
    expect(r.sessions.map((s) => s.outcome)).toEqual(['malformed', 'partial', 'complete']);
    expect(r.stats.malformedReplies).toBe(3);
    expectTruth(r);
    expect(r.verdicts[0]?.judge?.attempts).toBe(3);
  });

  it('holistic: when every attempt is malformed the items stay unjudged, never guessed', async () => {
    server.setScript(
      judgeScript([
        { name: 'prose', match: { any: /ITEM c-/, turn: { min: 2 } }, reply: { text: 'Everything is fine.' } },
      ]),
    );
    const r = await run(setup({ mode: 'holistic', attempts: 2 }));
    expect(
      r.verdicts.every((v) => v.decision === 'unjudged' && v.source === 'none' && v.unjudgedReason === 'malformed'),
    ).toBe(true);
    expect(r.verdicts[0]?.reason).toMatch(/4 malformed replies/);
    // Nothing was decided, so no reply names a deciding model.
    expect(r.verdicts.every((v) => v.judge !== undefined && !('reportedModel' in v.judge))).toBe(true);
    expect(r.sessions).toHaveLength(2);
    expect(r.stats.malformedReplies).toBe(4);
  });

  it('batched: a batch reply that misses items is retried for the missing ones only, then falls back per item', async () => {
    server.setScript(
      judgeScript([
        // Every batch submission drops its last item; the fallback (single item) works.
        {
          name: 'drop-last',
          match: { tool: 'submit_verdicts', turn: 2 },
          reply: (req) => {
            const ids = [...(req.messages[0]?.text ?? '').matchAll(/^ITEM (\S+):/gm)].map((m) => m[1] ?? '');
            const keep = ids.slice(0, -1);
            if (keep.length === 0) return { text: 'nothing' };
            return {
              toolCalls: [
                {
                  name: 'submit_verdicts',
                  arguments: {
                    verdicts: keep.map((id) => ({
                      itemId: id,
                      decision: truth().get(id),
                      justification: 'ok',
                      evidence: [],
                    })),
                  },
                },
              ],
            };
          },
        },
        // The three single-item batch retries answer in prose twice (reply and correction): malformed.
        {
          name: 'retry-prose',
          match: { tool: 'submit_verdict', turn: { min: 2 } },
          times: 6,
          reply: { text: 'I am not sure.' },
        },
      ]),
    );
    const r = await run(setup({ mode: 'batched' }));
    expectTruth(r);
    const phases = r.sessions.map((s) => `${s.phase}:${s.itemIds.length}`).sort();
    // 3 batches of 8 (7 decided each), 3 retries of the missing item (malformed), then 3 one-item fallbacks.
    expect(phases).toEqual([
      'batch:1',
      'batch:1',
      'batch:1',
      'batch:8',
      'batch:8',
      'batch:8',
      'fallback:1',
      'fallback:1',
      'fallback:1',
    ]);
    const fallback = r.verdicts.filter((v) => v.judge?.phase === 'fallback').map((v) => v.itemId);
    expect(fallback).toEqual(['c-08', 'c-16', 'c-24']);
    expect(r.verdicts.find((v) => v.itemId === 'c-08')?.judge?.attempts).toBe(3);
  });

  it('never sends the key anywhere but the auth header, and never logs or stores it', async () => {
    const r = await run(setup({ mode: 'batched' }));
    expect(server.sawCredential(KEY)).toBe(true);
    server.assertNoSecret(KEY, { verdicts: JSON.stringify(r) });
  });

  it('cancellation ends hanging sessions and leaves their items unjudged as cancelled', async () => {
    server.setScript(judgeScript([{ name: 'hang', match: { any: /ITEM c-/ }, fault: { kind: 'hang' } }]));
    const s = setup({ mode: 'batched' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const t0 = Date.now();
    const r = await judgeItems({
      items: ITEMS,
      context: CONTEXT,
      evidence: evidence(),
      setup: s,
      model: createJudgeModel(s, { env }),
      evidenceContextVersion: 't',
      signal: controller.signal,
    });
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(r.verdicts.every((v) => v.decision === 'unjudged' && v.unjudgedReason === 'cancelled')).toBe(true);
    expect(r.sessions.every((x) => x.outcome === 'cancelled')).toBe(true);
  });

  it('names the missing key variable', () => {
    expect(() => createJudgeModel(setup({ mode: 'per-item' }), { env: {} })).toThrow(new RegExp(KEY_ENV));
  });
});
