// Verdict reuse: zero model calls for unchanged artifacts; changed artifacts, criteria,
// requirements or judge setups are judged again.
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { judgeSetupSchema, type JudgeSetup } from '@assay/core';
import { startMockLlm, type MockLlmServer } from '@assay/mock-llm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createDirectoryVerdictCache,
  createJudgeModel,
  createMemoryVerdictCache,
  judgeItems,
  withSingleFlight,
  type JudgeItem,
  type VerdictCache,
} from '../src/index.js';
import { CONTEXT, ITEMS, KEY, KEY_ENV, MEMO, env, evidence, judgeScript, truth } from './fixtures.js';

let server: MockLlmServer;
beforeAll(async () => {
  server = await startMockLlm({ script: judgeScript() });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.clearRecords());

const setup = (over: Partial<JudgeSetup> = {}) =>
  judgeSetupSchema.parse({
    mode: 'batched',
    provider: 'openai',
    model: 'judge-model',
    baseUrl: `${server.url}/v1`,
    apiKeyEnv: KEY_ENV,
    ...over,
  });

function judge(
  cache: VerdictCache,
  opts: { memo?: string; items?: JudgeItem[]; s?: JudgeSetup; version?: string; request?: string } = {},
) {
  const s = opts.s ?? setup();
  return judgeItems({
    items: opts.items ?? ITEMS,
    context: { ...CONTEXT, request: opts.request ?? CONTEXT.request },
    evidence: evidence(opts.memo),
    setup: s,
    model: createJudgeModel(s, { env }),
    cache,
    evidenceContextVersion: opts.version ?? 'test/1',
  });
}

describe('verdict reuse', () => {
  it('makes zero calls for unchanged artifacts (directory store), and keeps no key in it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'verdicts-'));
    const first = await judge(createDirectoryVerdictCache(dir));
    expect(first.stats.judged).toBe(24);
    const callsBefore = server.modelCalls().length;
    // A fresh cache object over the same directory: as a restarted worker would see it.
    const second = await judge(createDirectoryVerdictCache(dir));
    expect(server.modelCalls().length).toBe(callsBefore);
    expect(second.stats).toMatchObject({ reused: 24, judged: 0, sessions: 0, modelCalls: 0 });
    expect(second.verdicts.map((v) => v.decision)).toEqual(first.verdicts.map((v) => v.decision));
    expect(second.verdicts.every((v) => v.judge?.reused && v.judge.usage.inputTokens === 0)).toBe(true);
    // The entry keeps the model the provider named, so a reused verdict still says which model decided it.
    expect(second.verdicts.every((v) => v.judge?.reportedModel === 'judge-model')).toBe(true);
    const shards = await readdir(dir);
    const files = (
      await Promise.all(shards.map(async (s) => (await readdir(join(dir, s))).map((f) => join(dir, s, f))))
    ).flat();
    expect(files).toHaveLength(24);
    const stored = (await Promise.all(files.map((f) => readFile(f, 'utf8')))).join('\n');
    server.assertNoSecret(KEY, { 'verdict cache': stored });
  });

  it('re-judges everything when a file every criterion is about changes', async () => {
    const cache = createMemoryVerdictCache();
    await judge(cache);
    server.clearRecords();
    const changed = MEMO.replace('Medicaid', 'government payers');
    const r = await judge(cache, { memo: changed });
    expect(r.stats.reused).toBe(0);
    expect(r.stats.judged).toBe(24);
    expect(r.verdicts.find((v) => v.itemId === 'c-12')?.decision).toBe('not-satisfied');
    const t = truth(changed);
    expect(r.verdicts.every((v) => v.decision === t.get(v.itemId))).toBe(true);
  });

  it('with per-criterion artifacts, re-judges only criteria about the changed file', async () => {
    const items = ITEMS.map((i, k) => ({ ...i, artifacts: [k < 12 ? 'q3-review.md' : 'model.xlsx'] }));
    const cache = createMemoryVerdictCache();
    await judge(cache, { items });
    server.clearRecords();
    const r = await judge(cache, { items, memo: MEMO.replace('Riverside', 'River Side') });
    expect(r.stats.reused).toBe(12);
    expect(r.stats.judged).toBe(12);
    expect(r.verdicts.filter((v) => !v.judge?.reused).map((v) => v.itemId)).toEqual(
      ITEMS.slice(0, 12).map((i) => i.id),
    );
    expect(server.modelCalls().length).toBe(4);
  });

  it('re-judges when the criterion text, requirements, evidence-context version or judge setup change', async () => {
    const cache = createMemoryVerdictCache();
    await judge(cache);
    const reworded = ITEMS.map((i) => (i.id === 'c-01' ? { ...i, text: `${i.text} (exactly)` } : i));
    expect((await judge(cache, { items: reworded })).stats.judged).toBe(1);
    expect((await judge(cache, { request: `${CONTEXT.request} Also include a tax note.` })).stats.judged).toBe(24);
    expect((await judge(cache, { version: 'test/2' })).stats.judged).toBe(24);
    expect((await judge(cache, { s: setup({ model: 'other-judge' }) })).stats.judged).toBe(24);
    expect((await judge(cache, { s: setup({ mode: 'per-item' }) })).stats.judged).toBe(24);
    expect((await judge(cache)).stats.reused).toBe(24);
  });

  it('reuses an entry stored before reported models without naming one', async () => {
    const inner = createMemoryVerdictCache();
    await judge(inner);
    // As an entry written by an earlier version reads: no reportedModel.
    const older: VerdictCache = {
      get: async (key) => {
        const hit = await inner.get(key);
        if (!hit || hit === 'pending') return null;
        const { reportedModel: _dropped, ...judge } = hit.judge;
        return { ...hit, judge };
      },
      put: (entry) => inner.put(entry),
    };
    const r = await judge(older);
    expect(r.stats.reused).toBe(24);
    expect(r.verdicts.every((v) => v.judge !== undefined && !('reportedModel' in v.judge))).toBe(true);
  });

  it('never caches unjudged items', async () => {
    const cache = createMemoryVerdictCache();
    server.setScript(
      judgeScript([
        { name: 'prose', match: { any: /ITEM c-0[1-4]:/, turn: { min: 2 } }, reply: { text: 'Looks fine.' } },
      ]),
    );
    try {
      const r = await judge(cache, { items: ITEMS.slice(0, 4), s: setup({ mode: 'per-item' }) });
      expect(r.stats.unjudged).toBe(4);
      expect(cache.size()).toBe(0);
    } finally {
      server.setScript(judgeScript());
    }
  });

  it('judges identical submissions once when they are judged at the same time (single flight)', async () => {
    const cache = withSingleFlight(createMemoryVerdictCache());
    const runs = await Promise.all([judge(cache), judge(cache), judge(cache)]);
    expect(runs.map((r) => r.stats.judged)).toEqual([24, 0, 0]);
    expect(runs.map((r) => r.stats.reused)).toEqual([0, 24, 24]);
    const decisions = runs.map((r) => r.verdicts.map((v) => v.decision));
    expect(decisions[1]).toEqual(decisions[0]);
    expect(decisions[2]).toEqual(decisions[0]);
    // Without it, the three runs would all miss the cache and each call the model.
    const plain = createMemoryVerdictCache();
    const racing = await Promise.all([judge(plain), judge(plain)]);
    expect(racing.map((r) => r.stats.judged)).toEqual([24, 24]);
  });

  it('lets the next run judge a key the first left unjudged, instead of waiting forever', async () => {
    const cache = withSingleFlight(createMemoryVerdictCache());
    server.setScript(
      judgeScript([{ name: 'prose', match: { any: /ITEM c-01:/, turn: { min: 2 } }, reply: { text: 'Looks fine.' } }]),
    );
    try {
      const items = ITEMS.slice(0, 2);
      const s = setup({ mode: 'per-item' });
      const [a, b] = await Promise.all([judge(cache, { items, s }), judge(cache, { items, s })]);
      // c-01 stays unjudged in both (each ran its own session: nothing was stored); c-02 was judged once, reused once.
      expect([a.stats.unjudged, b.stats.unjudged]).toEqual([1, 1]);
      expect(a.stats.judged + b.stats.judged).toBe(1);
      expect(a.stats.reused + b.stats.reused).toBe(1);
      expect(Math.min(a.stats.sessions, b.stats.sessions)).toBeGreaterThan(0);
    } finally {
      server.setScript(judgeScript());
    }
  });
});
