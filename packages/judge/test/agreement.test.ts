// Human-label import (CSV and JSONL) and agreement: raw and Cohen's kappa, pooled and per group.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  agreementStats,
  computeAgreement,
  loadHumanLabels,
  parseCsv,
  parseHumanLabels,
  successAgreement,
  type JudgedDecision,
} from '../src/index.js';

const JUDGE = [1, 1, 0, 0, 1, 0, 1, 1, 0, 1];
const HUMAN = [1, 0, 0, 0, 1, 1, 1, 1, 0, 1];

describe('agreement', () => {
  it('computes raw agreement and Cohen kappa', () => {
    const s = agreementStats(JUDGE.map((j, i) => ({ judge: j === 1, human: HUMAN[i] === 1 })));
    expect(s).toMatchObject({ n: 10, agree: 8, raw: 0.8, judgeSatisfied: 6, humanSatisfied: 6 });
    // po = 0.8, pe = 0.6*0.6 + 0.4*0.4 = 0.52
    expect(s.kappa).toBeCloseTo((0.8 - 0.52) / 0.48, 10);
    expect(agreementStats([]).raw).toBeNull();
    expect(
      agreementStats([
        { judge: true, human: true },
        { judge: true, human: true },
      ]).kappa,
    ).toBeNull();
  });

  it('joins judge decisions with labels, pooled and per group, and counts unjudged and unmatched', () => {
    const judged: JudgedDecision[] = JUDGE.map((j, i) => ({
      subject: `s/t/${1 + (i % 2)}`,
      item: `i${i}`,
      decision: j ? 'satisfied' : 'not-satisfied',
      group: i < 5 ? 'artifact-quality' : 'package-acceptance',
    }));
    judged.push({ subject: 's/t/1', item: 'i99', decision: 'unjudged' });
    const labels = parseHumanLabels(
      [
        'subject,item,label',
        ...HUMAN.map((h, i) => `s/t/${1 + (i % 2)},i${i},${h ? 'yes' : 'no'}`),
        's/t/1,i99,satisfied',
        's/t/9,i1,satisfied',
      ].join('\n'),
      'csv',
    );
    const r = computeAgreement(judged, labels);
    expect(r.pooled).toMatchObject({ n: 10, agree: 8 });
    expect(r.unjudged).toBe(1);
    expect(r.unmatched).toBe(1);
    expect(r.groups['artifact-quality']).toMatchObject({ n: 5, agree: 4 });
    expect(r.groups['package-acceptance']).toMatchObject({ n: 5, agree: 4 });
  });

  it('success-level agreement compares thresholded weighted scores', () => {
    const judged: JudgedDecision[] = [
      { subject: 'a', item: 'x', decision: 'satisfied' },
      { subject: 'a', item: 'y', decision: 'satisfied' },
      { subject: 'b', item: 'x', decision: 'satisfied' },
      { subject: 'b', item: 'y', decision: 'not-satisfied' },
    ];
    const labels = parseHumanLabels(
      '{"subject":"a","item":"x","label":"satisfied"}\n{"subject":"a","item":"y","label":"satisfied"}\n{"subject":"b","item":"x","label":"satisfied"}\n{"subject":"b","item":"y","label":"satisfied"}\n',
      'jsonl',
    );
    const s = successAgreement(judged, labels, (_s, item) => (item === 'x' ? 5 : 1));
    // a: 100 vs 100 (both success); b: 83.3 vs 100 (disagree).
    expect(s).toMatchObject({ n: 2, agree: 1 });
  });
});

describe('human labels', () => {
  it('parses quoted CSV, any column order, optional group and annotator', () => {
    const rows = parseCsv('a,"b, with comma","c ""quoted"""\r\n1,2,3\n');
    expect(rows).toEqual([
      ['a', 'b, with comma', 'c "quoted"'],
      ['1', '2', '3'],
    ]);
    const labels = parseHumanLabels(
      'label,item,subject,group,annotator\nnot-satisfied,totals,sys/task/1,"calc, precision",ann-1\n1,title,sys/task/1,,\n',
      'csv',
    );
    expect(labels).toEqual([
      { subject: 'sys/task/1', item: 'totals', label: 'not-satisfied', group: 'calc, precision', annotator: 'ann-1' },
      { subject: 'sys/task/1', item: 'title', label: 'satisfied' },
    ]);
  });

  it('rejects bad rows with the line number', () => {
    expect(() => parseHumanLabels('subject,item,label\nx,y,maybe\n', 'csv', 'l.csv')).toThrow(
      /l\.csv, line 2: label "maybe"/,
    );
    expect(() => parseHumanLabels('subject,label\nx,yes\n', 'csv')).toThrow(/missing column "item"/);
    expect(() => parseHumanLabels('{"subject":"x"\n', 'jsonl', 'l.jsonl')).toThrow(/l\.jsonl, line 1/);
  });

  it('loads files by extension', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'labels-'));
    await writeFile(join(dir, 'l.jsonl'), '{"subject":"s","item":"i","label":"fail","group":"g"}\n');
    expect(await loadHumanLabels(join(dir, 'l.jsonl'))).toEqual([
      { subject: 's', item: 'i', label: 'not-satisfied', group: 'g' },
    ]);
    await expect(loadHumanLabels(join(dir, 'l.txt'))).rejects.toThrow(/unknown format/);
  });
});
