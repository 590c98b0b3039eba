import { describe, expect, it } from 'vitest';
import { IMPORTANCE_WEIGHTS, isSuccess, scoreTask } from '../src/index.js';

const v = (importance: keyof typeof IMPORTANCE_WEIGHTS, decision: 'satisfied' | 'not-satisfied' | 'unjudged') => ({
  weight: IMPORTANCE_WEIGHTS[importance],
  decision,
});

describe('scoreTask (StartupBench: sum(w*y)/sum(w), 5/3/1)', () => {
  it('weights core 5, important 3, auxiliary 1', () => {
    expect(IMPORTANCE_WEIGHTS).toEqual({ core: 5, important: 3, auxiliary: 1 });
    // Core + auxiliary satisfied, important missed: (5 + 1) / 9.
    const s = scoreTask([v('core', 'satisfied'), v('important', 'not-satisfied'), v('auxiliary', 'satisfied')]);
    expect(s.value).toBeCloseTo((100 * 6) / 9, 10);
    expect(s.success).toBe(false);
    expect(s.coverage).toBe(1);
  });

  it('succeeds at exactly 90 and not below', () => {
    expect(isSuccess(90)).toBe(true);
    expect(isSuccess(89.999)).toBe(false);
    // 9 core satisfied + 1 core missed = 90.
    const items = [...Array.from({ length: 9 }, () => v('core', 'satisfied')), v('core', 'not-satisfied')];
    expect(scoreTask(items)).toMatchObject({ value: 90, success: true });
  });

  it('never turns an unjudged item into 0 or 1', () => {
    const s = scoreTask([v('core', 'satisfied'), v('important', 'unjudged')]);
    expect(s.value).toBeNull();
    expect(s.success).toBeNull();
    expect(s.decided).toBe(100);
    expect(s.coverage).toBeCloseTo(5 / 8, 10);
  });

  it('has no score when nothing is decided', () => {
    expect(scoreTask([v('core', 'unjudged')])).toEqual({ value: null, decided: null, coverage: 0, success: null });
    expect(scoreTask([])).toEqual({ value: null, decided: null, coverage: 0, success: null });
  });
});
