import { describe, expect, it } from 'vitest';
import { allocate, buildReviewQueue, candidateKey, type ReviewCandidate } from '../src/build-review-queue.js';
import { parseReviewInput } from '../src/review-routes.js';
import { sameOriginProblem } from '../src/same-origin.js';

const item = (over: Partial<ReviewCandidate> & { itemId: string }): ReviewCandidate => ({
  unit: 'tasks/t1',
  system: 'a',
  trial: 1,
  scope: null,
  checkpoint: null,
  text: null,
  check: null,
  importance: 'core',
  target: null,
  dimension: 'structure-completeness',
  itemDigest: 'd'.repeat(64),
  judgeDecision: 'satisfied',
  judgeReason: '',
  judgeAnchors: [],
  ...over,
});

// 40 decided items in 4 strata of 20 / 10 / 8 / 2, and 5 unjudged.
const candidates: ReviewCandidate[] = [
  ...Array.from({ length: 20 }, (_, i) => item({ itemId: `big${i}` })),
  ...Array.from({ length: 10 }, (_, i) => item({ itemId: `no${i}`, judgeDecision: 'not-satisfied' })),
  ...Array.from({ length: 8 }, (_, i) => item({ itemId: `b${i}`, system: 'b' })),
  ...Array.from({ length: 2 }, (_, i) => item({ itemId: `imp${i}`, importance: 'supporting' })),
  ...Array.from({ length: 5 }, (_, i) => item({ itemId: `u${i}`, judgeDecision: 'unjudged', trial: 2 })),
];

const stratum = (c: ReviewCandidate) => [c.system, c.dimension, c.importance, c.judgeDecision].join('/');
const countBy = (xs: ReviewCandidate[]) =>
  xs.reduce<Record<string, number>>((m, c) => ({ ...m, [stratum(c)]: (m[stratum(c)] ?? 0) + 1 }), {});

describe('buildReviewQueue', () => {
  it('unjudged mode: every unjudged item, in record order', () => {
    const q = buildReviewQueue(candidates, { mode: 'unjudged', size: 2, seed: 1 });
    expect(q.map((c) => c.itemId)).toEqual(['u0', 'u1', 'u2', 'u3', 'u4']);
  });

  it('sample mode: proportional per stratum, at least one each, decided items only', () => {
    const q = buildReviewQueue(candidates, { mode: 'sample', size: 10, seed: 7 });
    expect(q).toHaveLength(10);
    expect(q.every((c) => c.judgeDecision !== 'unjudged')).toBe(true);
    expect(new Set(q.map(candidateKey)).size).toBe(10);
    // 10 × 20/40 = 5, 10 × 10/40 = 2.5, 10 × 8/40 = 2, 10 × 2/40 = 0.5 → at least 1.
    expect(countBy(q)).toEqual({
      'a/structure-completeness/core/satisfied': 5,
      'a/structure-completeness/core/not-satisfied': 2,
      'b/structure-completeness/core/satisfied': 2,
      'a/structure-completeness/supporting/satisfied': 1,
    });
  });

  it('is deterministic by seed and independent of the input order', () => {
    const opts = { mode: 'sample', size: 12, seed: 42 } as const;
    const once = buildReviewQueue(candidates, opts).map(candidateKey);
    expect(buildReviewQueue([...candidates].reverse(), opts).map(candidateKey)).toEqual(once);
    const other = buildReviewQueue(candidates, { ...opts, seed: 43 }).map(candidateKey);
    expect(other).not.toEqual(once);
    expect(countBy(buildReviewQueue(candidates, { ...opts, seed: 43 }))).toEqual(
      countBy(buildReviewQueue(candidates, opts)),
    );
  });

  it('a size below the number of strata takes one from the largest; a size above all takes all', () => {
    const two = buildReviewQueue(candidates, { mode: 'sample', size: 2, seed: 3 });
    expect(Object.keys(countBy(two)).sort()).toEqual([
      'a/structure-completeness/core/not-satisfied',
      'a/structure-completeness/core/satisfied',
    ]);
    expect(buildReviewQueue(candidates, { mode: 'sample', size: 100, seed: 3 })).toHaveLength(40);
  });

  it('allocate sums to the size and never exceeds a stratum', () => {
    expect(allocate([20, 10, 8, 2], 10)).toEqual([5, 2, 2, 1]);
    expect(allocate([1, 1, 30], 5)).toEqual([1, 1, 3]);
    expect(allocate([3, 0, 3], 6)).toEqual([3, 0, 3]);
    expect(allocate([5, 5], 0)).toEqual([0, 0]);
  });
});

describe('writes: same origin and input', () => {
  it('refuses another Host or Origin, and a missing Origin', () => {
    expect(sameOriginProblem('127.0.0.1:5000', 'http://127.0.0.1:5000', 5000)).toBeNull();
    expect(sameOriginProblem('localhost:5000', 'http://localhost:5000', 5000)).toBeNull();
    expect(sameOriginProblem('evil.example:5000', 'http://evil.example:5000', 5000)).toMatch(/^Host/);
    expect(sameOriginProblem('127.0.0.1:5000', 'http://evil.example', 5000)).toMatch(/^Origin/);
    expect(sameOriginProblem('127.0.0.1:5000', undefined, 5000)).toMatch(/no Origin/);
    expect(sameOriginProblem('127.0.0.1:5001', 'http://127.0.0.1:5001', 5000)).toMatch(/^Host/);
  });

  it('names the bad field', () => {
    const ok = { reviewer: 'ana', unit: 'tasks/t1', system: 'a', trial: 1, itemId: 'x', decision: 'satisfied' };
    expect(parseReviewInput(ok)).toMatchObject({ ...ok, scope: null, note: '', evidence: [], blind: false });
    expect(() => parseReviewInput({ ...ok, reviewer: '../x' })).toThrow(/^reviewer:/);
    expect(() => parseReviewInput({ ...ok, decision: 'yes' })).toThrow(/^decision:/);
    expect(() => parseReviewInput({ ...ok, trial: 0 })).toThrow(/^trial:/);
    expect(() => parseReviewInput({ ...ok, unit: 'runs/p' })).toThrow(/^unit:/);
    // A project criterion names its scope (its checkpoint's subtask, or final); a task item has none.
    const criterion = { ...ok, unit: 'projects/p', scope: 's1' };
    expect(parseReviewInput(criterion)).toMatchObject({ unit: 'projects/p', scope: 's1' });
    expect(parseReviewInput({ ...criterion, scope: 'final' })).toMatchObject({ scope: 'final' });
    expect(() => parseReviewInput({ ...ok, unit: 'projects/p' })).toThrow(/^scope:/);
    expect(() => parseReviewInput({ ...criterion, scope: '' })).toThrow(/^scope:/);
    expect(() => parseReviewInput({ ...ok, scope: 's1' })).toThrow(/^scope:/);
    expect(parseReviewInput({ ...ok, scope: null })).toMatchObject({ scope: null });
    expect(() => parseReviewInput({ ...ok, evidence: [1] })).toThrow(/^evidence:/);
    expect(() => parseReviewInput([])).toThrow(/^body:/);
  });
});
