// The progress model (counts, rate, ETA from outcomes and timestamps) and its plain and JSON
// renderings, on hand-made inputs whose right answers can be worked out by hand.
import { describe, expect, it } from 'vitest';
import { controlOf, endpointsOf } from '../src/progress/job-watch.js';
import { computeProgress, type ProgressInput, type UnitResult } from '../src/progress/progress-model.js';
import {
  failureEvent,
  formatDuration,
  progressEvent,
  renderFailure,
  renderPlainProgress,
} from '../src/progress/render-progress.js';
import { temporalUiOf, unitLink, workflowLink } from '../src/progress/temporal-ui.js';

const T0 = Date.parse('2026-12-01T10:00:00Z');
const unit = (key: string, status: string, secondsAfter: number, extra: Partial<UnitResult> = {}): UnitResult => ({
  key,
  kind: 'task',
  status,
  unjudged: 0,
  reason: null,
  at: T0 + secondsAfter * 1000,
  ...extra,
});

const input = (over: Partial<ProgressInput> = {}): ProgressInput => ({
  systems: ['oracle', 'nop'],
  unitsPerSystem: 6,
  startedAt: T0,
  now: T0 + 120_000,
  running: ['oracle/t4/1', 'nop/t2/1', 'oracle/t1/1'],
  units: [
    unit('oracle/t1/1', 'completed', 30),
    unit('oracle/t2/1', 'completed', 60, { unjudged: 2 }),
    unit('oracle/t3/1', 'completed', -600),
    unit('nop/t1/1', 'agent-failed', 90, { reason: 'exit code 1\nstack...' }),
    unit('nop/t9/1', 'skipped', -600),
  ],
  usage: { agentTokens: 12_345, agentUsd: null, judgeTokens: 800, judgeUsd: 0.0123 },
  ...over,
});

describe('computeProgress', () => {
  it('counts per system, and the rate from what finished since the watch started', () => {
    const v = computeProgress(input());
    expect(v.systems).toEqual([
      // oracle/t1/1 is still in `running` (the query lagged the record): it counts as done only.
      { id: 'oracle', total: 6, done: 3, running: 1, failed: 0, unjudged: 1 },
      { id: 'nop', total: 6, done: 1, running: 1, failed: 1, unjudged: 0 },
    ]);
    expect([v.total, v.done, v.running, v.failed, v.unjudged]).toEqual([12, 4, 2, 1, 1]);
    // 3 finished in the 2 minutes since the start (oracle/t3/1 was recorded before): 1.5/min,
    // and the 8 units left take 8 / 1.5 minutes.
    expect(v.perMinute).toBe(1.5);
    expect(v.etaSeconds).toBeCloseTo(320, 6);
    expect(v.failures.map((f) => f.key)).toEqual(['nop/t1/1']);
  });

  it('counts a unit once, as its latest outcome says (a retried infra failure that then completed)', () => {
    const v = computeProgress(
      input({
        units: [
          unit('oracle/t1/1', 'infra-failed', 10, { reason: 'docker gone' }),
          unit('oracle/t1/1', 'completed', 50),
        ],
        running: [],
      }),
    );
    expect(v.done).toBe(1);
    expect(v.failed).toBe(0);
    expect(v.failures).toEqual([]);
  });

  it('has no rate or ETA before anything finished, and ETA 0 when all is done', () => {
    const none = computeProgress(input({ units: [], running: [] }));
    expect([none.perMinute, none.etaSeconds]).toEqual([null, null]);
    const all = computeProgress(
      input({
        systems: ['a'],
        unitsPerSystem: 2,
        running: [],
        units: [unit('a/t/1', 'completed', -100), unit('a/t/2', 'completed', -50)],
      }),
    );
    expect([all.done, all.total, all.perMinute, all.etaSeconds]).toEqual([2, 2, null, 0]);
  });
});

describe('plain and JSON renderings', () => {
  it('prints one line for the job, one per system, the usage and job control', () => {
    const control = controlOf({
      control: {
        state: 'paused',
        reason: 'budget',
        concurrency: 2,
        spend: { usd: 1.5, tokens: 20_000, agentHours: 0.25 },
      },
    });
    expect(renderPlainProgress(computeProgress(input({ control })))).toMatchInlineSnapshot(`
      [
        "progress 2m00s: 4/12 done, 2 running, 1 failed, 1 unjudged; 1.5 trials/min, ETA 5m20s",
        "  oracle  3/6 done, 1 running, 0 failed, 1 unjudged",
        "  nop     1/6 done, 1 running, 1 failed, 0 unjudged",
        "  tokens: agent 12.3k, judge 800 $0.01",
        "  control: paused, budget, concurrency 2, spent $1.50, 20.0k tokens, 0.25 agent-h",
      ]
    `);
  });

  it('prints a line per endpoint the job limits for back-pressure, and puts them in the JSON event', () => {
    const endpoints = endpointsOf({
      endpoints: [
        { endpoint: 'https://api.example.com', limit: 2, concurrency: 8, throttled: 40, recentThrottled: 37 },
        { endpoint: 'http://127.0.0.1:9', limit: 'x' },
      ],
    });
    const view = computeProgress(input({ endpoints }));
    expect(renderPlainProgress(view).at(-1)).toBe(
      '  back-pressure: api.example.com 2/8 lanes, 37 throttled in the last 5 min',
    );
    expect(JSON.parse(JSON.stringify(progressEvent(view, 'now'))).endpoints).toEqual([
      { endpoint: 'https://api.example.com', limit: 2, concurrency: 8, throttled: 40, recentThrottled: 37 },
    ]);
    expect(endpointsOf({ running: [] })).toEqual([]);
    expect(progressEvent(computeProgress(input()), 'now').endpoints).toBeUndefined();
  });

  it('prints a failure on one line with its Web UI link', () => {
    const ui = temporalUiOf({ ASSAY_TEMPORAL_UI: 'http://ui.example:8233/' }, 'default');
    const [f] = computeProgress(input()).failures;
    expect(renderFailure(f!, unitLink(ui, 'sample', f!))).toMatchInlineSnapshot(
      `"  agent-failed nop/t1/1: exit code 1 (http://ui.example:8233/namespaces/default/workflows/assay-trial%3Asample%3Anop%3At1%3A1)"`,
    );
    expect(failureEvent(f!, null, '2026-12-01T10:02:00.000Z')).toEqual({
      event: 'failure',
      at: '2026-12-01T10:02:00.000Z',
      key: 'nop/t1/1',
      kind: 'task',
      status: 'agent-failed',
      reason: 'exit code 1\nstack...',
      ui: null,
    });
  });

  it('emits a progress event that survives JSON and holds the per-system counts', () => {
    const e = JSON.parse(JSON.stringify(progressEvent(computeProgress(input()), '2026-12-01T10:02:00.000Z')));
    expect(e).toMatchObject({ event: 'progress', total: 12, done: 4, perMinute: 1.5, etaSeconds: 320 });
    expect(e.systems).toHaveLength(2);
    expect(e.control).toBeUndefined();
  });
});

describe('Web UI links and job control', () => {
  it('has no link when no UI is known, and links to the dev server UI otherwise', () => {
    expect(workflowLink(temporalUiOf({}, 'default'), 'assay-job:x')).toBeNull();
    expect(workflowLink(temporalUiOf({}, 'ns', 'http://127.0.0.1:8233'), 'assay-job:x')).toBe(
      'http://127.0.0.1:8233/namespaces/ns/workflows/assay-job%3Ax',
    );
    expect(unitLink(temporalUiOf({}, 'd', 'http://u'), 'j', { key: 's/p/1', kind: 'project' })).toBe(
      'http://u/namespaces/d/workflows/assay-project%3Aj%3As%3Ap%3A1',
    );
  });

  it('reads the optional control field defensively', () => {
    expect(controlOf({ running: [] })).toBeNull();
    expect(controlOf({ control: { state: 3 } })).toBeNull();
    expect(controlOf({ control: { state: 'cancelling', spend: { usd: 'x' } } })).toEqual({ state: 'cancelling' });
  });

  it('formats durations', () => {
    expect([formatDuration(null), formatDuration(59.6), formatDuration(61), formatDuration(7300)]).toEqual([
      '?',
      '1m00s',
      '1m01s',
      '2h01m',
    ]);
  });
});
