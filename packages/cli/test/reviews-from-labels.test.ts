// Label rows as reviews: task items and project criteria (at a checkpoint by its subtask, or in the final
// package), each pinned to the item's digest in the job lock and carrying the judge's decision from the record;
// a row naming what the job does not have is refused by file, line and field. Then the reviews read back as the
// labels `assay report` measures the judge against, per criterion and scope.
import { describe, expect, it } from 'vitest';
import { labelAgreement, judgedSetupOf, labelsFromReviews } from '@assay/analysis';
import { acceptUnits, itemDigestOf, type CriterionVerdict, type Review } from '@assay/core';
import { makeProjectRecord, makeTrialRecord } from '../../results/test/make-records.js';
import { reviewsFromLabels, type LabelRow } from '../src/reviews-from-labels.js';

const criterion = (criterionId: string, decision: CriterionVerdict['decision']): CriterionVerdict => ({
  ...{ criterionId, weight: 1, fatal: false, dimension: 'correctness', target: 'artifact-quality', decision },
  ...{ source: 'judge', reason: '', reusedFrom: null, reuseKey: 'k', effective: decision === 'satisfied' ? 1 : 0 },
  blockedBy: [],
});
const base = makeProjectRecord('p', 'proj', 1);
const project = {
  ...base,
  checkpoints: [
    { ...base.checkpoints[0]!, verdicts: [criterion('c1', 'satisfied'), criterion('c2', 'not-satisfied')] },
  ],
  final: { ...base.final, verdicts: [criterion('f1', 'satisfied')] },
};
const trial = makeTrialRecord('s', 't1', 1);
const fields = (id: string) => ({ text: `${id} holds`, importance: 'core' });
const lock = acceptUnits(
  null,
  {
    jobId: 'j',
    specDigest: 'd',
    units: {
      'tasks/t1': { digest: 'a', parts: {}, items: { i1: fields('i1') } },
      'projects/proj': {
        digest: 'b',
        parts: {},
        items: { 's1/c1': fields('c1'), 's1/c2': fields('c2'), 'final/f1': fields('f1') },
      },
    },
  },
  'now',
);
const o = { trials: [trial], projects: [project], lock, reviewer: 'ana', file: 'labels.csv', resultsDir: '/r' };
const row = (unit: string, item: string, scope: string | null, human: number, system = 'p'): LabelRow => ({
  ...{ system, unit, trial: 1, item, scope, human },
});

describe('reviewsFromLabels', () => {
  it('turns task items and project criteria into reviews pinned to the locked version', () => {
    const rows = [
      row('t1', 'i1', null, 0, 's'),
      row('proj', 'c1', 's1', 1),
      row('proj', 'c2', 's1', 1),
      row('proj', 'f1', 'final', 0),
    ];
    const reviews = reviewsFromLabels(rows, o);
    expect(reviews.map((r) => [r.unit, r.item.scope, r.item.id, r.decision, r.judgeDecision])).toEqual([
      ['tasks/t1', null, 'i1', 'not-satisfied', 'satisfied'],
      ['projects/proj', 's1', 'c1', 'satisfied', 'satisfied'],
      ['projects/proj', 's1', 'c2', 'satisfied', 'not-satisfied'],
      ['projects/proj', 'final', 'f1', 'not-satisfied', 'satisfied'],
    ]);
    expect(reviews[2]!.itemDigest).toBe(itemDigestOf(fields('c2')));
    expect(reviews.every((r) => !r.blind && r.note === 'imported from labels.csv')).toBe(true);

    // Read back as labels, they measure the judge's criteria: c1 agree, c2 and f1 disagree.
    const stored: Review[] = reviews.map((r, i) => ({
      ...r,
      schema: 'assay.review/v1',
      id: `r${i}`,
      at: `2026-01-0${i + 1}T00:00:00.000Z`,
    }));
    const { labels } = labelsFromReviews(stored, lock);
    const got = labelAgreement([judgedSetupOf('j', [trial], [project])], labels)!;
    const projectRows = (got.rows.objects() as Record<string, unknown>[]).filter((r) => r.kind === 'project');
    expect(projectRows[0]).toMatchObject({ by: 'all', n: 3, agree: 1, human_only: 1, judge_only: 1 });
    expect(projectRows.map((r) => `${r.by}:${r.group}`)).toContain('target:artifact-quality');
    expect((got.disagreements.objects() as Record<string, unknown>[]).map((d) => [d.kind, d.scope, d.item])).toEqual([
      ['task', null, 'i1'],
      ['project', 's1', 'c2'],
      ['project', 'final', 'f1'],
    ]);
  });

  it('refuses a row naming a record, criterion or version the job does not have, by line and field', () => {
    expect(() => reviewsFromLabels([row('proj', 'c1', 's1', 1), row('proj', 'c9', 's1', 1)], o)).toThrow(
      /^labels\.csv:3: item: proj has no criterion "c9" at s1/,
    );
    expect(() => reviewsFromLabels([row('proj', 'c1', 's2', 1)], o)).toThrow(
      /labels\.csv:2: item: proj has no criterion "c1" at s2/,
    );
    expect(() => reviewsFromLabels([row('other', 'c1', 's1', 1)], o)).toThrow(
      /labels\.csv:2: system\/unit\/trial: no project record p\/other\/1/,
    );
    const noVersion = { ...o, lock: null };
    expect(() => reviewsFromLabels([row('proj', 'f1', 'final', 1)], noVersion)).toThrow(
      /job-lock\.json has no version of proj item "final\/f1"/,
    );
  });
});
