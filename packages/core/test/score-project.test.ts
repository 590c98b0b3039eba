import { describe, expect, it } from 'vitest';
import { scoreGroups, scoreProcess, scoreProjectFinal, type ScoredCriterion } from '../src/index.js';

const c = (id: string, weight: number, h: 0 | 1 | null, more: Partial<ScoredCriterion> = {}): ScoredCriterion => ({
  id,
  weight,
  h,
  fatal: false,
  dependsOn: [],
  ...more,
});

describe('scoreProjectFinal (DeliverBench)', () => {
  it('divides signed credit by the positive weight', () => {
    // W+ = 10 + 5 = 15; credit = 10 + 0 - 3 = 7.
    const s = scoreProjectFinal([c('a', 10, 1), c('b', 5, 0), c('n', -3, 1)]);
    expect(s.score).toBeCloseTo((100 * 7) / 15, 10);
    expect(s.gateTriggered).toBe(false);
  });

  it('clips below 0 and keeps the raw value for diagnosis', () => {
    const s = scoreProjectFinal([c('a', 2, 0), c('n', -9, 1)]);
    expect(s.raw).toBeCloseTo(-450, 10);
    expect(s.score).toBe(0);
  });

  it('never exceeds 100', () => {
    expect(scoreProjectFinal([c('a', 4, 1), c('n', -2, 0)]).score).toBe(100);
  });

  it('a triggered fatal gate sets the final score to 0', () => {
    const gate = c('g', 0, 1, { fatal: true });
    expect(scoreProjectFinal([c('a', 10, 1), gate])).toMatchObject({ score: 0, gateTriggered: true, gates: ['g'] });
    expect(scoreProjectFinal([c('a', 10, 1), { ...gate, h: 0 }]).score).toBe(100);
  });

  it('removes credit of a positive criterion whose dependency does not hold', () => {
    const s = scoreProjectFinal([c('base', 5, 0), c('derived', 5, 1, { dependsOn: ['base'] })]);
    expect(s.score).toBe(0);
    expect(s.criteria[1]).toEqual({ id: 'derived', effective: 0, blockedBy: ['base'] });
  });

  it('treats a negative dependency as holding when its failure is not met', () => {
    const ok = scoreProjectFinal([c('no-stale', -4, 0), c('uses', 4, 1, { dependsOn: ['no-stale'] })]);
    expect(ok.score).toBe(100);
    const bad = scoreProjectFinal([c('no-stale', -4, 1), c('uses', 4, 1, { dependsOn: ['no-stale'] })]);
    expect(bad.score).toBe(0); // -4 + 0 (blocked), clipped
  });

  it('resolves chains of dependencies transitively', () => {
    const s = scoreProjectFinal([c('a', 1, 0), c('b', 1, 1, { dependsOn: ['a'] }), c('d', 1, 1, { dependsOn: ['b'] })]);
    expect(s.criteria.map((r) => r.effective)).toEqual([0, 0, 0]);
  });

  it('stays pending (null) while a criterion is unjudged, unless a gate already decided', () => {
    expect(scoreProjectFinal([c('a', 3, 1), c('b', 3, null)])).toMatchObject({ score: null, unjudged: ['b'] });
    expect(scoreProjectFinal([c('a', 3, null), c('g', 0, 1, { fatal: true })]).score).toBe(0);
  });

  it('rejects a cycle and an unknown dependency', () => {
    expect(() => scoreProjectFinal([c('a', 1, 1, { dependsOn: ['b'] }), c('b', 1, 1, { dependsOn: ['a'] })])).toThrow(
      /cycle/,
    );
    expect(() => scoreProjectFinal([c('a', 1, 1, { dependsOn: ['zz'] })])).toThrow(/unknown criterion "zz"/);
  });
});

describe('scoreGroups', () => {
  it('normalizes each group by its own positive weight and marks groups without one unavailable', () => {
    const criteria = [
      c('a', 6, 1, { target: 'artifact-quality' }),
      c('b', 4, 0, { target: 'artifact-quality' }),
      c('x', -3, 1, { target: 'cross-file-consistency' }),
      c('g', 0, 1, { fatal: true, target: 'package-acceptance' }),
    ];
    expect(scoreGroups(criteria, (k) => k.target)).toEqual([
      { group: 'artifact-quality', score: 60, available: true, positiveWeight: 10 },
      { group: 'cross-file-consistency', score: null, available: false, positiveWeight: 0 },
    ]);
  });
});

describe('scoreProcess', () => {
  it('is the mean of checkpoint scores, pending while any is unjudged', () => {
    expect(scoreProcess([100, 50, 90])).toBe(80);
    expect(scoreProcess([100, null])).toBeNull();
  });
});
