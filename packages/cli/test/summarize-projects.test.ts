import { describe, expect, it } from 'vitest';
import type { CriterionVerdict } from '@assay/core';
import { decidedScore } from '../src/summarize-projects.js';

const v = (id: string, weight: number, decision: CriterionVerdict['decision'], fatal = false): CriterionVerdict => ({
  criterionId: id,
  weight,
  fatal,
  dimension: 'correctness',
  target: null,
  decision,
  source: 'check',
  reason: '',
  reusedFrom: null,
  reuseKey: '',
  effective: null,
  blockedBy: [],
});

describe('decidedScore', () => {
  it('scores decided criteria only, leaving unjudged ones out of W+', () => {
    expect(decidedScore([v('a', 6, 'satisfied'), v('b', 4, 'not-satisfied'), v('c', 10, 'unjudged')])).toBe(60);
  });
  it('applies negative criteria and gates', () => {
    expect(decidedScore([v('a', 5, 'satisfied'), v('n', -2, 'satisfied')])).toBe(60);
    expect(decidedScore([v('a', 5, 'satisfied'), v('g', 0, 'satisfied', true)])).toBe(0);
  });
  it('is null when nothing with positive weight is decided', () => {
    expect(decidedScore([v('a', 5, 'unjudged'), v('n', -2, 'not-satisfied')])).toBeNull();
  });
});
