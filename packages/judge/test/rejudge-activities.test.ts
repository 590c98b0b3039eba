// Re-judging a stored trial under another judge setup, judge activities with their
// directory cache and heartbeat, and cost roll-ups.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIMENSIONS, scoreTask, trialRecordSchema, type Rubric, type TrialRecord } from '@assay/core';
import { startMockLlm, type MockLlmServer } from '@assay/mock-llm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createJudgeActivities,
  judgeCost,
  loadJudgeSetupFile,
  parseJudgeSetup,
  rejudgeTrial,
  rubricJudgeItems,
  sumJudgeCosts,
} from '../src/index.js';
import { CONTEXT, ITEMS, KEY, KEY_ENV, env, evidence, judgeScript, truth } from './fixtures.js';

let server: MockLlmServer;
beforeAll(async () => {
  server = await startMockLlm({ script: judgeScript() });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.clearRecords());

const rubric: Rubric = {
  schema: 'assay.rubric/v1',
  reference: [],
  items: ITEMS.map((i, k) => ({
    id: i.id,
    text: i.text,
    importance: k % 3 === 0 ? 'core' : k % 3 === 1 ? 'important' : 'auxiliary',
    dimension: DIMENSIONS[k % DIMENSIONS.length] ?? 'structure-completeness',
  })),
};

function storedRecord(): TrialRecord {
  const verdicts = rubric.items.map((i) => ({
    itemId: i.id,
    importance: i.importance,
    dimension: i.dimension,
    weight: 1,
    decision: 'unjudged' as const,
    source: 'none' as const,
    reason: 'checks-only',
  }));
  return trialRecordSchema.parse({
    schema: 'assay.trial-record/v1',
    jobId: 'job-1',
    benchmark: { id: 'sb', version: '1' },
    system: { id: 'sys', harness: 'oracle', model: null },
    task: { id: CONTEXT.taskId, domain: 'finance', formatRequired: true },
    trial: 1,
    status: 'completed',
    agent: {
      exitCode: 0,
      timedOut: false,
      reason: null,
      startedAt: '2026-01-01T00:00:00Z',
      endedAt: '2026-01-01T00:10:00Z',
      durationSeconds: 600,
      containerAttempts: 1,
    },
    usage: null,
    deliverables: [],
    formatCompliance: { required: true, compliant: true, missing: [], wrongType: [] },
    verdicts,
    score: scoreTask(verdicts),
    recordedAt: '2026-01-01T00:10:00Z',
  });
}

describe('rejudgeTrial', () => {
  it('re-evaluates a stored submission under another judge setup and rescores it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'judge-setup-'));
    const file = join(dir, 'other.yaml');
    await writeFile(
      file,
      `judge:\n  mode: per-item\n  provider: anthropic\n  model: claude-judge\n  baseUrl: ${server.url}\n  apiKeyEnv: ${KEY_ENV}\n  concurrency: 8\n`,
    );
    const setup = await loadJudgeSetupFile(file);
    const before = storedRecord();
    expect(before.score.value).toBeNull();
    const out = await rejudgeTrial({
      record: before,
      rubric,
      context: CONTEXT,
      evidence: evidence(),
      setup,
      modelOptions: { env },
    });
    const t = truth();
    expect(out.record.verdicts.map((v) => v.decision)).toEqual(rubric.items.map((i) => t.get(i.id)));
    expect(out.record.verdicts[0]).toMatchObject({
      weight: 5,
      source: 'judge',
      judge: { provider: 'anthropic', model: 'claude-judge', mode: 'per-item' },
    });
    expect(trialRecordSchema.parse(out.record)).toBeTruthy();
    const expected = scoreTask(out.record.verdicts);
    expect(out.record.score).toEqual(expected);
    expect(out.record.score.value).not.toBeNull();
    expect(out.cost).toMatchObject({ sessions: 24, modelCalls: 48 });
    expect(before.verdicts[0]?.decision).toBe('unjudged');
    server.assertNoSecret(KEY, { record: JSON.stringify(out) });
  });

  it('rejects an invalid judge setup file with the field named', () => {
    expect(() => parseJudgeSetup({ mode: 'per-item', batchSize: 0 }, 'x.yaml')).toThrow(
      /x\.yaml is invalid: batchSize/,
    );
  });
});

describe('judge activities', () => {
  it('judge a submission, reuse the verdicts across activity instances, heartbeat, and return plain data', async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), 'judge-cache-'));
    const beats: unknown[] = [];
    const lines: string[] = [];
    const make = () =>
      createJudgeActivities({
        cacheDir,
        openEvidence: () => evidence(),
        modelOptions: { env },
        heartbeat: (d) => beats.push(d),
        log: (l) => lines.push(l),
      });
    const input = {
      submission: { dir: '/tmp/does-not-matter', id: 'sys/fin-q3-review/1' },
      items: rubricJudgeItems(rubric.items),
      context: CONTEXT,
      setup: {
        mode: 'batched',
        provider: 'openai',
        model: 'judge-model',
        baseUrl: `${server.url}/v1`,
        apiKeyEnv: KEY_ENV,
      },
    };
    const first = await make().judgeSubmission(input);
    expect(JSON.parse(JSON.stringify(first))).toEqual(first);
    expect(first.cost).toMatchObject({ sessions: 3, modelCalls: 6, items: { judged: 24 } });
    expect(beats).toEqual([1, 2, 3].map((n) => expect.objectContaining({ sessions: n, total: 24 })));
    expect(beats.at(-1)).toMatchObject({ decided: 24 });
    const calls = server.modelCalls().length;
    const second = await make().judgeSubmission(input);
    expect(server.modelCalls().length).toBe(calls);
    expect(second.cost).toMatchObject({ sessions: 0, modelCalls: 0, totalTokens: 0, items: { reused: 24 } });
    const trial = sumJudgeCosts([first.cost, second.cost]);
    expect(trial.totalTokens).toBe(first.cost.totalTokens);
    expect(trial.costUsd).toBeNull();
    expect(lines.join('\n')).toMatch(/24 reused/);
    server.assertNoSecret(KEY, { activity: JSON.stringify([first, second]), log: lines.join('\n') });
  });
});

describe('judge cost', () => {
  it('prices tokens with cached input counted once, inside input', () => {
    const stats = {
      items: 1,
      byCheck: 0,
      reused: 0,
      judged: 1,
      unjudged: 0,
      sessions: 1,
      modelCalls: 2,
      malformedReplies: 0,
      usage: { inputTokens: 1_000_000, outputTokens: 100_000, cachedInputTokens: 400_000 },
      wallMs: 10,
      modelMs: 8,
      bookkeepingMs: 1,
    };
    const c = judgeCost({ stats }, { inputPerMTok: 2, outputPerMTok: 10, cachedInputPerMTok: 0.5 });
    expect(c.totalTokens).toBe(1_100_000);
    expect(c.costUsd).toBeCloseTo(0.6 * 2 + 0.4 * 0.5 + 0.1 * 10, 10);
    expect(sumJudgeCosts([c, c]).costUsd).toBeCloseTo(2 * (c.costUsd ?? 0), 10);
  });
});
