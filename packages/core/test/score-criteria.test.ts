// Scoring of decided criteria (score-criteria.ts) and the record shapes decisions become
// (to-verdicts.ts). The DeliverBench rules themselves are in score-project.test.ts.
import { describe, expect, it } from 'vitest';
import {
  checkpointRecordSchema,
  criterionSchema,
  decidedVerdictScore,
  finalCriterionSchema,
  rubricItemSchema,
  scoreCriteriaVerdicts,
  scoreProjectTrial,
  subtaskPassRate,
  toCriterionVerdict,
  toTaskVerdict,
  unjudgedCriterionVerdicts,
  type CheckpointRecord,
  type Decision,
  type ItemDecision,
  type QualityDimension,
  type Target,
  type UnscoredCriterionVerdict,
  type Usage,
} from '../src/index.js';

type Spec = { weight: number; decision: Decision; fatal?: boolean; dependsOn?: string[] };
type More = { target?: Target | null; dimension?: QualityDimension };

/** Unscored verdicts and their dependency map from a compact table. */
function table(specs: Record<string, Spec & More>) {
  const verdicts: UnscoredCriterionVerdict[] = Object.entries(specs).map(([id, s]) => ({
    criterionId: id,
    weight: s.weight,
    fatal: s.fatal ?? false,
    dimension: s.dimension ?? 'correctness',
    target: s.target ?? null,
    decision: s.decision,
    source: s.decision === 'unjudged' ? 'none' : 'check',
    reason: '',
    reusedFrom: null,
    reuseKey: id,
  }));
  const dependsOn = new Map(Object.entries(specs).map(([id, s]) => [id, s.dependsOn ?? []]));
  return { verdicts, dependsOn };
}
const scored = (specs: Record<string, Spec & More>) => {
  const t = table(specs);
  return scoreCriteriaVerdicts(t.verdicts, t.dependsOn);
};

describe('scoreCriteriaVerdicts', () => {
  it('records the effective judgment and blockers on each verdict', () => {
    const e = scored({
      base: { weight: 5, decision: 'not-satisfied' },
      derived: { weight: 5, decision: 'satisfied', dependsOn: ['base'] },
      open: { weight: 2, decision: 'unjudged' },
    });
    expect(e.verdicts.map((v) => [v.criterionId, v.effective, v.blockedBy])).toEqual([
      ['base', 0, []],
      ['derived', 0, ['base']],
      ['open', null, []],
    ]);
    expect(e).toMatchObject({ score: null, raw: null, unjudged: ['open'], gateTriggered: false });
  });
});

describe('decidedVerdictScore', () => {
  it('equals the full score when nothing is pending', () => {
    const cases: Record<string, Spec>[] = [
      // signed credit: (8 + 0 - 3) / 12
      {
        a: { weight: 8, decision: 'satisfied' },
        b: { weight: 4, decision: 'not-satisfied' },
        n: { weight: -3, decision: 'satisfied' },
      },
      // a dependency that fails removes the dependant's credit: 5 / 10
      {
        base: { weight: 5, decision: 'satisfied' },
        x: { weight: 2, decision: 'not-satisfied' },
        d: { weight: 3, decision: 'satisfied', dependsOn: ['x'] },
      },
      // clipped below 0
      { a: { weight: 1, decision: 'not-satisfied' }, n: { weight: -9, decision: 'satisfied' } },
      // a gate that did not trigger
      { a: { weight: 4, decision: 'satisfied' }, g: { weight: 0, decision: 'not-satisfied', fatal: true } },
    ];
    for (const c of cases) {
      const e = scored(c);
      expect(e.score).not.toBeNull();
      expect(decidedVerdictScore(e.verdicts)).toBeCloseTo(e.score ?? NaN, 10);
    }
  });

  it('leaves pending criteria out of both credit and W+', () => {
    const e = scored({
      a: { weight: 6, decision: 'satisfied' },
      b: { weight: 3, decision: 'not-satisfied' },
      open: { weight: 10, decision: 'unjudged' },
      // satisfied, but its dependency is still open: pending too
      waits: { weight: 5, decision: 'satisfied', dependsOn: ['open'] },
      negOpen: { weight: -4, decision: 'unjudged' },
    });
    expect(e.score).toBeNull();
    expect(e.verdicts.filter((v) => v.effective === null).map((v) => v.criterionId)).toEqual([
      'open',
      'waits',
      'negOpen',
    ]);
    // 6 / (6 + 3): the 10 and 5 of the pending positives are not in W+.
    expect(decidedVerdictScore(e.verdicts)).toBeCloseTo((100 * 6) / 9, 10);
  });

  it('is 0 when a gate triggered, whatever is pending', () => {
    const e = scored({
      a: { weight: 6, decision: 'satisfied' },
      open: { weight: 4, decision: 'unjudged' },
      g: { weight: 0, decision: 'satisfied', fatal: true },
    });
    expect(e.score).toBe(0);
    expect(decidedVerdictScore(e.verdicts)).toBe(0);
  });

  it('counts a dependency-blocked positive criterion as decided at 0', () => {
    const e = scored({
      a: { weight: 5, decision: 'satisfied' },
      stale: { weight: -3, decision: 'satisfied' }, // failure met
      uses: { weight: 4, decision: 'satisfied', dependsOn: ['stale'] },
      open: { weight: 2, decision: 'unjudged' },
    });
    expect(e.verdicts.find((v) => v.criterionId === 'uses')).toMatchObject({ effective: 0, blockedBy: ['stale'] });
    // (5 - 3 + 0) / (5 + 4): `uses` is in W+ with no credit; `open` is out.
    expect(decidedVerdictScore(e.verdicts)).toBeCloseTo((100 * 2) / 9, 10);
  });

  it('is null when no positive weight is decided', () => {
    const e = scored({ open: { weight: 5, decision: 'unjudged' }, n: { weight: -2, decision: 'not-satisfied' } });
    expect(decidedVerdictScore(e.verdicts)).toBeNull();
  });
});

describe('subtaskPassRate', () => {
  it('passes at >= 90 on the unrounded score', () => {
    expect(subtaskPassRate([90, 89.996, 100, 40])).toBe(0.5);
  });
  it('is null while any checkpoint is unjudged, or when there are none', () => {
    expect(subtaskPassRate([100, null])).toBeNull();
    expect(subtaskPassRate([])).toBeNull();
  });
});

describe('scoreProjectTrial', () => {
  const usage = (inputTokens: number, outputTokens: number, cachedInputTokens: number): Usage => ({
    inputTokens,
    outputTokens,
    cachedInputTokens,
    costUsd: null,
    turns: null,
  });
  const checkpoint = (subtaskId: string, score: number | null, seconds: number, u: Usage | null): CheckpointRecord =>
    checkpointRecordSchema.parse({
      subtaskId,
      stageId: 's1',
      agent: {
        status: 'completed',
        exitCode: 0,
        timedOut: false,
        reason: null,
        startedAt: '2026-01-01T00:00:00Z',
        endedAt: '2026-01-01T00:01:00Z',
        durationSeconds: seconds,
        containerAttempts: 1,
      },
      usage: u,
      snapshot: { manifestSha256: 'm', files: [] },
      verdicts: [],
      score,
      gateTriggered: false,
      unjudged: score === null ? ['c'] : [],
    });
  const final = table({
    q1: { weight: 6, decision: 'satisfied', target: 'artifact-quality', dimension: 'correctness' },
    q2: { weight: 2, decision: 'not-satisfied', target: 'artifact-quality', dimension: 'professionalism' },
    x1: { weight: 4, decision: 'satisfied', target: 'cross-file-consistency', dimension: 'consistency' },
    acc: { weight: 3, decision: 'unjudged', target: 'package-acceptance', dimension: 'usability' },
    g: { weight: 0, decision: 'not-satisfied', fatal: true, target: 'package-acceptance', dimension: 'correctness' },
  });

  it('process score is the mean of checkpoint scores; pass rate counts >= 90 unrounded', () => {
    const s = scoreProjectTrial(
      [
        checkpoint('t1', 100, 30, usage(1000, 200, 600)),
        checkpoint('t2', 89.996, 20, usage(500, 100, 0)),
        checkpoint('t3', 90, 10, usage(300, 50, 300)),
      ],
      final.verdicts,
      final.dependsOn,
    );
    expect(s.process.score).toBeCloseTo((100 + 89.996 + 90) / 3, 10);
    expect(s.process.passRate).toBeCloseTo(2 / 3, 10);
    // Cached input is inside input: 1800 + 350, not + 900 more.
    expect(s.resources).toEqual({ agentSeconds: 60, inputTokens: 1800, outputTokens: 350, totalTokens: 2150 });
  });

  it('process score and pass rate are null while any checkpoint is unjudged', () => {
    const s = scoreProjectTrial(
      [checkpoint('t1', 100, 30, usage(1, 1, 0)), checkpoint('t2', null, 20, usage(1, 1, 0))],
      final.verdicts,
      final.dependsOn,
    );
    expect(s.process).toEqual({ score: null, passRate: null });
  });

  it('token totals are unknown (null) when any checkpoint has no usage; agent time still adds up', () => {
    const s = scoreProjectTrial(
      [checkpoint('t1', 100, 30, usage(1000, 200, 0)), checkpoint('t2', 100, 12.5, null)],
      final.verdicts,
      final.dependsOn,
    );
    expect(s.resources).toEqual({ agentSeconds: 42.5, inputTokens: null, outputTokens: null, totalTokens: null });
  });

  it('profiles targets and dimensions separately, pending groups null, gates left out', () => {
    const s = scoreProjectTrial([checkpoint('t1', 100, 1, null)], final.verdicts, final.dependsOn);
    expect(s.targets).toEqual([
      { group: 'artifact-quality', score: 75, available: true, positiveWeight: 8 },
      { group: 'cross-file-consistency', score: 100, available: true, positiveWeight: 4 },
      { group: 'package-acceptance', score: null, available: true, positiveWeight: 3 },
    ]);
    expect(s.dimensions).toEqual([
      { group: 'correctness', score: 100, available: true, positiveWeight: 6 },
      { group: 'professionalism', score: 0, available: true, positiveWeight: 2 },
      { group: 'consistency', score: 100, available: true, positiveWeight: 4 },
      { group: 'usability', score: null, available: true, positiveWeight: 3 },
    ]);
  });
});

describe('to-verdicts', () => {
  const decision = (over: Partial<ItemDecision> = {}): ItemDecision => ({
    id: 'x',
    decision: 'satisfied',
    source: 'check',
    reason: 'found',
    evidence: [],
    reusedFrom: null,
    reuseKey: 'k',
    ...over,
  });
  const rubricItem = (importance: 'core' | 'important' | 'auxiliary') =>
    rubricItemSchema.parse({ id: `i-${importance}`, text: 't', importance, dimension: 'calculation-precision' });

  it('toTaskVerdict: weight from importance (5/3/1), never from the decision', () => {
    expect(
      (['core', 'important', 'auxiliary'] as const).map((imp) => toTaskVerdict(rubricItem(imp), decision()).weight),
    ).toEqual([5, 3, 1]);
  });

  it('toTaskVerdict: evidence and judge meta go under judge; nothing there, no judge field', () => {
    expect(toTaskVerdict(rubricItem('core'), decision())).toMatchInlineSnapshot(`
      {
        "decision": "satisfied",
        "dimension": "calculation-precision",
        "importance": "core",
        "itemId": "i-core",
        "reason": "found",
        "source": "check",
        "weight": 5,
      }
    `);
    const judged = decision({
      source: 'judge',
      evidence: ['memo.md line 4'],
      judge: { model: 'm', check: { status: 'cannot-evaluate', reason: 'cut' } },
    });
    expect(toTaskVerdict(rubricItem('important'), judged).judge).toEqual({
      model: 'm',
      check: { status: 'cannot-evaluate', reason: 'cut' },
      evidence: ['memo.md line 4'],
    });
    expect(toTaskVerdict(rubricItem('core'), decision({ evidence: ['a.xlsx B2'] })).judge).toEqual({
      evidence: ['a.xlsx B2'],
    });
  });

  it('toTaskVerdict: task records have no "reused" source', () => {
    expect(toTaskVerdict(rubricItem('core'), decision({ source: 'reused' })).source).toBe('judge');
    expect(toTaskVerdict(rubricItem('core'), decision({ source: 'none', decision: 'unjudged' })).source).toBe('none');
  });

  it('toCriterionVerdict: protocol weight, gate and target; reuse fields kept', () => {
    const cp = criterionSchema.parse({ id: 'cap', text: 't', weight: -4, dimension: 'consistency' });
    const fin = finalCriterionSchema.parse({
      id: 'fa',
      text: 't',
      weight: 0,
      fatal: true,
      dimension: 'correctness',
      target: 'package-acceptance',
      reuses: 't03/cap',
    });
    expect(toCriterionVerdict(cp, decision())).toMatchObject({
      criterionId: 'cap',
      weight: -4,
      fatal: false,
      target: null,
    });
    expect(
      toCriterionVerdict(fin, decision({ source: 'reused', reusedFrom: 't03/cap', reuseKey: 'abc', reason: 'same' })),
    ).toMatchInlineSnapshot(`
      {
        "criterionId": "fa",
        "decision": "satisfied",
        "dimension": "correctness",
        "fatal": true,
        "reason": "same",
        "reuseKey": "abc",
        "reusedFrom": "t03/cap",
        "source": "reused",
        "target": "package-acceptance",
        "weight": 0,
      }
    `);
  });

  it('unjudgedCriterionVerdicts: every criterion unjudged with the one reason', () => {
    const criteria = [
      criterionSchema.parse({ id: 'a', text: 't', weight: 3, dimension: 'completeness' }),
      finalCriterionSchema.parse({ id: 'b', text: 't', weight: 2, dimension: 'usability', target: 'artifact-quality' }),
    ];
    const out = unjudgedCriterionVerdicts(criteria, 'evaluation failed after 3 attempts');
    expect(out.map((v) => [v.criterionId, v.decision, v.source, v.reason, v.target, v.judge])).toEqual([
      ['a', 'unjudged', 'none', 'evaluation failed after 3 attempts', null, undefined],
      ['b', 'unjudged', 'none', 'evaluation failed after 3 attempts', 'artifact-quality', undefined],
    ]);
    // They score as pending, never as 0.
    const e = scoreCriteriaVerdicts(out, new Map());
    expect(e).toMatchObject({ score: null, unjudged: ['a', 'b'] });
  });
});
