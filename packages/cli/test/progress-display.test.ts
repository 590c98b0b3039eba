// The non-terminal displays: plain summaries at most once a period plus each failure once, and
// JSON events one object per line; and the record reader that feeds tokens and cost.
import { describe, expect, it } from 'vitest';
import { computeProgress, type ProgressInput } from '../src/progress/progress-model.js';
import { createProgressDisplay, type DisplayMode } from '../src/progress/progress-display.js';
import { usageOfRecord } from '../src/progress/record-usage.js';

const T0 = Date.parse('2026-12-01T10:00:00Z');

function harness(mode: DisplayMode) {
  let now = T0;
  const written: string[] = [];
  const stdout = {
    write: (s: string) => written.push(...s.split('\n').filter(Boolean)),
  } as unknown as NodeJS.WriteStream;
  const display = createProgressDisplay({
    mode,
    linkOf: (u) => `ui/${u.key}`,
    periodSeconds: 30,
    stdout,
    now: () => now,
  });
  const view = (done: number, failed: string[] = []) => {
    const units = [
      ...Array.from({ length: done }, (_, i) => ({ key: `a/t${i}/1`, status: 'completed' })),
      ...failed.map((key) => ({ key, status: 'infra-failed' })),
    ].map((u) => ({ ...u, kind: 'task' as const, unjudged: 0, reason: 'lost', at: now }));
    const input: ProgressInput = {
      systems: ['a'],
      unitsPerSystem: 10,
      startedAt: T0,
      now,
      running: [],
      units,
      usage: { agentTokens: 0, agentUsd: null, judgeTokens: 0, judgeUsd: null },
    };
    return computeProgress(input);
  };
  return { display, written, view, tick: (s: number) => (now += s * 1000) };
}

describe('createProgressDisplay', () => {
  it('plain: a summary per period, each failure once, and the last view at the end', () => {
    const h = harness('plain');
    h.display.update(h.view(0));
    h.tick(10);
    h.display.update(h.view(1, ['a/x/1']));
    h.tick(10);
    h.display.update(h.view(2, ['a/x/1']));
    h.tick(15);
    h.display.update(h.view(3, ['a/x/1']));
    h.display.finish(h.view(10));
    expect(h.written).toMatchInlineSnapshot(`
      [
        "progress 0s: 0/10 done, 0 running, 0 failed, 0 unjudged; ? trials/min, ETA ?",
        "  a  0/10 done, 0 running, 0 failed, 0 unjudged",
        "  tokens: agent 0, judge 0",
        "  infra-failed a/x/1: lost (ui/a/x/1)",
        "progress 35s: 4/10 done, 0 running, 1 failed, 0 unjudged; 6.9 trials/min, ETA 53s",
        "  a  4/10 done, 0 running, 1 failed, 0 unjudged",
        "  tokens: agent 0, judge 0",
        "progress 35s: 10/10 done, 0 running, 0 failed, 0 unjudged; 17.1 trials/min, ETA 0s",
        "  a  10/10 done, 0 running, 0 failed, 0 unjudged",
        "  tokens: agent 0, judge 0",
      ]
    `);
  });

  it('json: every line is one JSON object', () => {
    const h = harness('json');
    h.display.update(h.view(1, ['a/x/1']));
    h.display.log('a worker line');
    h.display.finish(h.view(10));
    const events = h.written.map((l) => JSON.parse(l) as { event: string });
    expect(events.map((e) => e.event)).toEqual(['failure', 'progress', 'progress']);
  });
});

describe('usageOfRecord', () => {
  it('sums agent tokens and cost, and judge tokens from the verdicts, of a task or a project record', () => {
    const judged = { judge: { usage: { inputTokens: 100, outputTokens: 20 }, costUsd: 0.5 } };
    expect(
      usageOfRecord({ usage: { inputTokens: 1000, outputTokens: 200, costUsd: 0.25 }, verdicts: [judged, {}] }),
    ).toEqual({ agentTokens: 1200, agentUsd: 0.25, judgeTokens: 120, judgeUsd: 0.5 });
    expect(
      usageOfRecord({
        checkpoints: [
          { usage: { inputTokens: 10, outputTokens: 5, costUsd: null }, verdicts: [judged] },
          { usage: null },
        ],
        final: { verdicts: [judged] },
      }),
    ).toEqual({ agentTokens: 15, agentUsd: null, judgeTokens: 240, judgeUsd: 1 });
  });

  it("prices the judge's and the agent's tokens with the job's table where no cost was reported", () => {
    const prices = {
      judge: { inputPerMTok: 2, outputPerMTok: 10, cachedInputPerMTok: 0.2, cacheWritePerMTok: 2.5 },
      agent: { inputPerMTok: 1, outputPerMTok: 4 },
    };
    const usage = { inputTokens: 1_000_000, outputTokens: 100_000, cachedInputTokens: 600_000 };
    const verdict = (reused: boolean) => ({
      judge: { model: 'judge', reused, usage: { ...usage, cacheWriteInputTokens: 300_000 } },
    });
    const record = {
      system: { model: 'agent' },
      usage: { ...usage, costUsd: null },
      verdicts: [verdict(false), verdict(true), { judge: { model: 'unpriced', usage } }],
    };
    // Judge: 100k plain $0.20 + 600k read $0.12 + 300k written $0.75 + 100k out $1; the reused verdict cost
    // nothing, the unpriced model adds tokens only. Agent: no cache prices, so all input at $1, out $0.40.
    const out = usageOfRecord(record, prices);
    expect(out.judgeUsd).toBeCloseTo(2.07, 10);
    expect(out.judgeTokens).toBe(2_200_000);
    expect(out.agentUsd).toBeCloseTo(1.4, 10);
  });

  it('prices a verdict decided through a provider batch at the batch discount', () => {
    const prices = { judge: { inputPerMTok: 2, outputPerMTok: 10, cachedInputPerMTok: 0.2, cacheWritePerMTok: 2.5 } };
    const usage = {
      inputTokens: 1_000_000,
      outputTokens: 100_000,
      cachedInputTokens: 600_000,
      cacheWriteInputTokens: 300_000,
    };
    const verdict = (extra: object) => ({
      judge: { model: 'judge', provider: 'anthropic', reused: false, usage, ...extra },
    });
    expect(usageOfRecord({ verdicts: [verdict({})] }, prices).judgeUsd).toBeCloseTo(2.07, 10);
    expect(usageOfRecord({ verdicts: [verdict({ batch: true })] }, prices).judgeUsd).toBeCloseTo(1.035, 10);
  });
});
