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

describe('dependency rule: positive criteria lose credit, negatives and gates apply as judged', () => {
  const gate = (id: string, h: 0 | 1 | null, dependsOn: string[] = []) => c(id, 0, h, { fatal: true, dependsOn });

  it('applies a negative criterion as judged when its dependency is unjudged', () => {
    const s = scoreProjectFinal([c('a', 5, null), c('n', -3, 1, { dependsOn: ['a'] }), c('b', 5, 1)]);
    expect(s.criteria[1]).toEqual({ id: 'n', effective: 1, blockedBy: [] });
    // Only a itself is open, so the score waits for it alone.
    expect(s).toMatchObject({ score: null, unjudged: ['a'] });
    const met = scoreProjectFinal([c('a', 5, null), c('n', -3, 0, { dependsOn: ['a'] })]);
    expect(met.criteria[1]).toEqual({ id: 'n', effective: 0, blockedBy: [] });
  });

  it('applies a negative criterion as judged when its dependency fails, and names no blocker', () => {
    // W+ = 5 + 5 = 10; credit = 0 (a) - 3 (n, applied) + 5 (b) = 2 -> 20.
    const s = scoreProjectFinal([c('a', 5, 0), c('n', -3, 1, { dependsOn: ['a'] }), c('b', 5, 1)]);
    expect(s.criteria[1]).toEqual({ id: 'n', effective: 1, blockedBy: [] });
    expect(s.score).toBe(20);
    const quiet = scoreProjectFinal([c('a', 5, 0), c('n', -3, 0, { dependsOn: ['a'] })]);
    expect(quiet.criteria[1]).toEqual({ id: 'n', effective: 0, blockedBy: [] });
  });

  it('keeps a negative criterion pending only while its own check is undecided', () => {
    const s = scoreProjectFinal([c('a', 5, 1), c('n', -3, null, { dependsOn: ['a'] })]);
    expect(s).toMatchObject({ score: null, unjudged: ['n'] });
  });

  it('applies a gate as judged whatever the state of its dependencies', () => {
    const triggered = scoreProjectFinal([c('a', 5, null), gate('g', 1, ['a'])]);
    expect(triggered).toMatchObject({ score: 0, gateTriggered: true, gates: ['g'], unjudged: ['a'] });
    expect(triggered.criteria[1]).toEqual({ id: 'g', effective: 1, blockedBy: [] });
    const quiet = scoreProjectFinal([c('a', 5, 0), gate('g', 0, ['a']), c('b', 5, 1)]);
    expect(quiet).toMatchObject({ score: 50, gateTriggered: false });
    expect(quiet.criteria[1]).toEqual({ id: 'g', effective: 0, blockedBy: [] });
    expect(scoreProjectFinal([c('a', 5, null), gate('g', 0, ['a'])]).criteria[1]?.effective).toBe(0);
  });

  it('treats a gate as a dependency that holds while it is not triggered', () => {
    const holds = scoreProjectFinal([gate('g', 0), c('a', 4, 1, { dependsOn: ['g'] })]);
    expect(holds.criteria[1]).toEqual({ id: 'a', effective: 1, blockedBy: [] });
    const fails = scoreProjectFinal([gate('g', 1), c('a', 4, 1, { dependsOn: ['g'] })]);
    expect(fails.criteria[1]).toEqual({ id: 'a', effective: 0, blockedBy: ['g'] });
    const open = scoreProjectFinal([gate('g', null), c('a', 4, 1, { dependsOn: ['g'] })]);
    expect(open.criteria[1]).toEqual({ id: 'a', effective: null, blockedBy: [] });
  });

  it('decides a positive criterion that earns nothing whatever its unjudged dependency turns out to be', () => {
    const unsatisfied = scoreProjectFinal([c('a', 5, null), c('b', 5, 0, { dependsOn: ['a'] })]);
    expect(unsatisfied.criteria[1]).toEqual({ id: 'b', effective: 0, blockedBy: [] });
    // One dependency fails, another is open: the credit is gone either way, and the blocker is named.
    const s = scoreProjectFinal([c('x', 1, 0), c('y', 1, null), c('d', 4, 1, { dependsOn: ['x', 'y'] })]);
    expect(s.criteria[2]).toEqual({ id: 'd', effective: 0, blockedBy: ['x'] });
    // An unjudged positive criterion whose dependency fails can earn nothing either.
    expect(scoreProjectFinal([c('x', 1, 0), c('d', 4, null, { dependsOn: ['x'] })]).criteria[1]).toEqual({
      id: 'd',
      effective: 0,
      blockedBy: ['x'],
    });
  });

  it('names no blocker for a positive criterion that was not satisfied anyway', () => {
    const s = scoreProjectFinal([c('base', 5, 0), c('derived', 5, 0, { dependsOn: ['base'] })]);
    expect(s.criteria[1]).toEqual({ id: 'derived', effective: 0, blockedBy: [] });
  });

  it('keeps a positive criterion pending while a dependency is open, along a chain', () => {
    const s = scoreProjectFinal([
      c('a', 1, null),
      c('b', 1, 1, { dependsOn: ['a'] }),
      c('d', 1, 1, { dependsOn: ['b'] }),
    ]);
    expect(s.criteria.map((r) => r.effective)).toEqual([null, null, null]);
    expect(s.unjudged).toEqual(['a', 'b', 'd']);
  });

  it('names only the direct blocker along a chain', () => {
    const s = scoreProjectFinal([c('a', 1, 0), c('b', 1, 1, { dependsOn: ['a'] }), c('d', 1, 1, { dependsOn: ['b'] })]);
    expect(s.criteria.map((r) => r.blockedBy)).toEqual([[], ['a'], ['b']]);
  });

  it('lets a negative criterion in a chain stand for its own judgment', () => {
    // a fails, but n (applied as judged, failure not met) holds, so d keeps its credit.
    const cut = scoreProjectFinal([
      c('a', 2, 0),
      c('n', -2, 0, { dependsOn: ['a'] }),
      c('d', 2, 1, { dependsOn: ['n'] }),
    ]);
    expect(cut.criteria.map((r) => r.effective)).toEqual([0, 0, 1]);
    expect(cut.score).toBe(50); // (0 - 0 + 2) / 4
    // a is unjudged: n still decides, and so does d; only a stays open.
    const open = scoreProjectFinal([
      c('a', 2, null),
      c('n', -2, 1, { dependsOn: ['a'] }),
      c('d', 2, 1, { dependsOn: ['n'] }),
    ]);
    expect(open.criteria).toEqual([
      { id: 'a', effective: null, blockedBy: [] },
      { id: 'n', effective: 1, blockedBy: [] },
      { id: 'd', effective: 0, blockedBy: ['n'] },
    ]);
    expect(open.unjudged).toEqual(['a']);
  });

  it('works out the worked example of the guide (docs/writing-a-benchmark.md)', () => {
    // W+ = 6 + 4 + 3 + 2 = 15. Credit: 6 + 4 + 0 (deck-agrees blocked by no-stale) - 3 + 0 = 7 -> 46.67.
    const s = scoreProjectFinal([
      c('total-right', 6, 1),
      c('memo-agrees', 4, 1, { dependsOn: ['total-right'] }),
      c('deck-agrees', 3, 1, { dependsOn: ['memo-agrees', 'no-stale'] }),
      c('no-stale', -3, 1),
      c('handover', 2, 0),
      gate('leak', 0, ['total-right']),
    ]);
    expect(s.criteria.map((r) => r.effective)).toEqual([1, 1, 0, 1, 0, 0]);
    expect(s.criteria[2]?.blockedBy).toEqual(['no-stale']);
    expect(s.raw).toBeCloseTo((100 * (6 + 4 + 0 - 3 + 0)) / 15, 10);
    expect(s.score).toBeCloseTo(46.666666666666664, 10);
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

describe('scoreGroups with dependencies', () => {
  it('does not hold a group pending for a negative criterion whose dependency is unjudged', () => {
    const criteria = [
      c('a', 4, null, { dimension: 'correctness' }),
      c('b', 4, 1, { dimension: 'consistency' }),
      c('n', -2, 1, { dimension: 'consistency', dependsOn: ['a'] }),
    ];
    expect(scoreGroups(criteria, (k) => k.dimension)).toEqual([
      { group: 'correctness', score: null, available: true, positiveWeight: 4 },
      { group: 'consistency', score: 50, available: true, positiveWeight: 4 },
    ]);
  });
});

describe('scoreProcess', () => {
  it('is the mean of checkpoint scores, pending while any is unjudged', () => {
    expect(scoreProcess([100, 50, 90])).toBe(80);
    expect(scoreProcess([100, null])).toBeNull();
  });
});
