// Judge agreement with people's labels, per setup and broken down, with kappa's bootstrap interval; and the
// interval's fast path (cell counts) against kappa recomputed on the same resampled items.
import { describe, expect, it } from 'vitest';
import * as aq from 'arquero';
import { cohenKappa } from '../src/cohen-kappa.js';
import { kappaInterval } from '../src/kappa-interval.js';
import { judgedSetupOf, labelAgreement } from '../src/label-agreement.js';
import { quantileSorted } from '../src/numeric.js';
import { createRng } from '../src/seeded-rng.js';
import { rowsOf } from '../src/table-helpers.js';
import { makeTrial } from './fixtures/make-records.js';

type Row = Record<string, unknown>;

describe('kappaInterval', () => {
  const a = [true, true, false, false, true, false, true, true, false, false, true, false];
  const b = [true, false, false, false, true, false, true, true, true, false, true, false];

  it('is the percentile interval of kappa over resampled items, seeded', () => {
    const got = kappaInterval(a, b, { resamples: 500, seed: 7 })!;
    // The same resamples, kappa computed from the raw decisions.
    const rng = createRng(7);
    const draws = new Uint32Array(a.length);
    const kappas: number[] = [];
    for (let r = 0; r < 500; r++) {
      rng.fillInts(a.length, draws);
      const k = cohenKappa(
        [...draws].map((i) => a[i]!),
        [...draws].map((i) => b[i]!),
      ).kappa;
      if (k !== null) kappas.push(k);
    }
    kappas.sort((x, y) => x - y);
    expect(got.low).toBeCloseTo(quantileSorted(kappas, 0.025), 12);
    expect(got.high).toBeCloseTo(quantileSorted(kappas, 0.975), 12);
    const k = cohenKappa(a, b).kappa!;
    expect(got.low).toBeLessThan(k);
    expect(got.high).toBeGreaterThan(k);
    expect(kappaInterval(a, b, { resamples: 500, seed: 7 })).toEqual(got);
  });

  it('has no interval for fewer than two items or raters who never vary', () => {
    expect(kappaInterval([true], [true])).toBeNull();
    expect(kappaInterval([true, true], [true, true])).toBeNull();
  });
});

describe('labelAgreement', () => {
  // Judge: a decides [s, s, n, n] (core, core, auxiliary, auxiliary); b decides [s, n, unjudged].
  const trials = [
    makeTrial({
      system: 'a',
      task: 't1',
      items: [
        { decision: 'satisfied' },
        { decision: 'satisfied' },
        { decision: 'not-satisfied', importance: 'auxiliary' },
        { decision: 'not-satisfied', importance: 'auxiliary' },
      ],
    }),
    makeTrial({
      system: 'b',
      task: 't1',
      items: [{ decision: 'satisfied' }, { decision: 'not-satisfied' }, { decision: 'unjudged' }],
    }),
  ];
  const label = (system: string, item: string, human: 0 | 1) => ({
    system,
    unit: 't1',
    trial: 1,
    item,
    scope: null,
    human,
  });
  const labels = aq.from([
    label('a', 'i0', 1),
    label('a', 'i1', 0),
    label('a', 'i2', 0),
    label('a', 'i3', 1),
    label('b', 'i0', 1),
    label('b', 'i1', 0),
    label('b', 'i2', 1),
    label('c', 'i0', 1),
  ]);

  it('pools, breaks down by system and importance, fills the confusion table and lists disagreements', () => {
    const got = labelAgreement([judgedSetupOf('job', trials, [])], labels, { resamples: 200 })!;
    const rows = rowsOf<Row>(got.rows);
    const pick = (by: string, group: string) => rows.find((r) => r.by === by && r.group === group);
    // Pooled: 6 decided pairs (b's i2 unjudged, c unmatched). Judge [1,1,0,0,1,0], labels [1,0,0,1,1,0].
    // p_o = 4/6; judge yes 3/6, label yes 3/6: p_e = 1/2; kappa = (2/3 - 1/2) / (1/2) = 1/3.
    expect(pick('all', 'all')).toMatchObject({
      ...{ n: 6, agree: 4, both_satisfied: 2, judge_only: 1, human_only: 1, both_not: 2 },
      ...{ unjudged: 1, unmatched: 1 },
    });
    expect(pick('all', 'all')!.kappa).toBeCloseTo(1 / 3, 12);
    expect(pick('system', 'a')).toMatchObject({ n: 4, agree: 2, kappa: 0 });
    expect(pick('system', 'b')).toMatchObject({ n: 2, agree: 2, kappa: 1, unjudged: 1 });
    expect(pick('importance', 'auxiliary')).toMatchObject({ n: 2, agree: 1, both_not: 1, human_only: 1 });
    expect(rows.every((r) => r.setup === 'job' && r.kind === 'task')).toBe(true);
    expect(rowsOf<Row>(got.disagreements).map((r) => [r.system, r.item, r.judge, r.human])).toEqual([
      ['a', 'i1', 1, 0],
      ['a', 'i3', 0, 1],
    ]);
  });

  it('measures each setup on its own decisions; none matched gives null', () => {
    const flipped = trials.map((t) => ({
      ...t,
      verdicts: t.verdicts.map((v) => ({
        ...v,
        decision:
          v.decision === 'satisfied'
            ? ('not-satisfied' as const)
            : v.decision === 'not-satisfied'
              ? ('satisfied' as const)
              : v.decision,
      })),
    }));
    const got = labelAgreement([judgedSetupOf('job', trials, []), judgedSetupOf('job+judge:x', flipped, [])], labels)!;
    const pooled = rowsOf<Row>(got.rows).filter((r) => r.by === 'all');
    expect(pooled.map((r) => [r.setup, r.n, r.agree])).toEqual([
      ['job', 6, 4],
      ['job+judge:x', 6, 2],
    ]);
    expect(labelAgreement([judgedSetupOf('job', [], [])], labels)).toBeNull();
  });
});
