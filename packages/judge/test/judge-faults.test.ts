// A flaky model API (30% of requests fail: 429, 500, hang, truncated or malformed bodies, slow
// replies) still ends with every criterion judged or explicitly unjudged, within the bounds.
import { judgeSetupSchema, type JudgeSetup } from '@assay/core';
import { startMockLlm, type MockLlmServer } from '@assay/mock-llm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJudgeModel, judgeItems, type JudgeRunResult } from '../src/index.js';
import { CONTEXT, ITEMS, KEY, KEY_ENV, env, evidence, judgeScript, truth } from './fixtures.js';

const FAULTS = {
  seed: 11,
  rate: 0.3,
  kinds: ['429', '500', 'hang', 'truncate', 'malformed', 'slow'] as const,
  retryAfter: 0,
  slowMs: 150,
};
const REASONS = ['malformed', 'incomplete', 'model-error', 'timeout', 'max-steps'];
const TRANSPORT_RETRIES = 1;

let server: MockLlmServer;
beforeAll(async () => {
  server = await startMockLlm({ script: judgeScript([], { ...FAULTS, kinds: [...FAULTS.kinds] }) });
});
afterAll(async () => {
  await server.close();
});

async function run(mode: JudgeSetup['mode'], seed = FAULTS.seed, rate = FAULTS.rate): Promise<JudgeRunResult> {
  server.setScript(judgeScript([], { ...FAULTS, seed, rate, kinds: [...FAULTS.kinds] }));
  server.clearRecords();
  const setup = judgeSetupSchema.parse({
    mode,
    provider: 'openai',
    model: 'judge-model',
    baseUrl: `${server.url}/v1`,
    apiKeyEnv: KEY_ENV,
    timeoutSeconds: 0.6,
    maxSteps: 6,
  });
  const model = createJudgeModel(setup, { env, transportRetries: TRANSPORT_RETRIES });
  return judgeItems({
    items: ITEMS,
    context: CONTEXT,
    evidence: evidence(),
    setup,
    model,
    evidenceContextVersion: 'test/1',
  });
}

function checkOutcome(r: JudgeRunResult) {
  const t = truth();
  expect(r.verdicts).toHaveLength(ITEMS.length);
  for (const v of r.verdicts) {
    if (v.decision === 'unjudged') {
      expect(v.source).toBe('none');
      expect(REASONS).toContain(v.unjudgedReason);
      expect(v.reason.length).toBeGreaterThan(0);
    } else {
      // A fault never turns into a wrong decision.
      expect(v.decision).toBe(t.get(v.itemId));
    }
  }
  // Each logical model call is at most 1 + transport retries HTTP requests.
  expect(server.modelCalls().length).toBeLessThanOrEqual(r.stats.modelCalls * (1 + TRANSPORT_RETRIES));
  expect(server.modelCalls().filter((c) => c.fault !== null).length).toBeGreaterThan(0);
  server.assertNoSecret(KEY, { verdicts: JSON.stringify(r) });
}

describe('injected faults (30%, and 70% once)', () => {
  it.each([
    [11, 0.3],
    [12, 0.3],
    [13, 0.3],
    [14, 0.3],
    [15, 0.7],
  ])(
    'batched (seed %i, rate %f): ≤2 attempts per batch, ≤1 fallback per item, every item decided or unjudged',
    async (seed, rate) => {
      const r = await run('batched', seed, rate);
      checkOutcome(r);
      const batches = new Map<string, number>();
      for (const s of r.sessions.filter((x) => x.phase === 'batch')) {
        const first = s.itemIds[0] ?? '';
        // Retries re-send a subset of one batch: group by the batch the first item belongs to.
        const batch = String(Math.floor((Number(first.slice(2)) - 1) / 8));
        batches.set(batch, (batches.get(batch) ?? 0) + 1);
      }
      expect([...batches.values()].every((n) => n <= 2)).toBe(true);
      for (const item of ITEMS) {
        const mine = r.sessions.filter((s) => s.itemIds.includes(item.id));
        expect(mine.filter((s) => s.phase === 'batch').length).toBeLessThanOrEqual(2);
        expect(mine.filter((s) => s.phase === 'fallback').length).toBeLessThanOrEqual(1);
      }
      expect(r.stats.judged + r.stats.unjudged).toBe(ITEMS.length);
      console.log(
        `batched under faults: ${r.stats.judged} judged, ${r.stats.unjudged} unjudged, ${r.stats.sessions} sessions, ${r.stats.modelCalls} calls, ${server.modelCalls().length} HTTP requests`,
      );
    },
  );

  it('per-item: ≤2 sessions per item', async () => {
    const r = await run('per-item');
    checkOutcome(r);
    for (const item of ITEMS)
      expect(r.sessions.filter((s) => s.itemIds.includes(item.id)).length).toBeLessThanOrEqual(2);
    expect(r.stats.judged).toBeGreaterThan(12);
    console.log(
      `per-item under faults: ${r.stats.judged} judged, ${r.stats.unjudged} unjudged, ${r.stats.sessions} sessions, ${r.stats.modelCalls} calls, ${server.modelCalls().length} HTTP requests`,
    );
  });
});
