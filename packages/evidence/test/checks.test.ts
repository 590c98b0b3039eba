// Every check kind: satisfied, not satisfied and cannot-evaluate, over a real submission view built
// (in the isolated parser) from real producers' files — including the papers' failure cases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assayTasks, loadBenchmark } from '@assay/benchmark';
import { checkOutcomeSchema, checkSchema, scoreGroups, scoreProcess, scoreProjectFinal } from '@assay/core';
import type { CheckOutcome, Criterion, FinalCriterion, ScoredCriterion } from '@assay/core';
import { buildSubmissionView, evaluateCheck } from '../src/index.js';
import type { SubmissionView } from '../src/index.js';

const FIX = join(import.meta.dirname, 'fixtures');
let root: string;
let view: SubmissionView;

const COPIES: Record<string, string> = {
  'payroll.xlsx': 'payroll-openpyxl.xlsx',
  'payroll-fixed.xlsx': 'payroll-libreoffice.xlsx',
  'capex.xlsx': 'capex-flawed.xlsx',
  'capex-corrected.xlsx': 'capex-corrected.xlsx',
  'summary.xlsx': 'exceljs-report.xlsx',
  'report.docx': 'report.docx',
  'deck.pptx': 'deck.pptx',
  'report.pdf': 'report.pdf',
  'locked.pdf': 'encrypted.pdf',
  'data.csv': 'data.csv',
  'notes/plan.md': 'notes.md',
  'chart.png': 'page.png',
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'assay-checks-'));
  await mkdir(join(root, 'notes'));
  for (const [to, from] of Object.entries(COPIES)) await copyFile(join(FIX, from), join(root, to));
  await writeFile(join(root, 'table.xlsx'), 'name,amount\nA,1\nB,2\nC,3\n'); // the wrong-type agent
  await writeFile(join(root, 'redos.txt'), `${'a'.repeat(32)}!\n`);
  await symlink('/etc/hostname', join(root, 'linked.docx'));
  view = await buildSubmissionView(root);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function check(raw: unknown): CheckOutcome {
  const outcome = evaluateCheck(checkSchema.parse(raw), view);
  checkOutcomeSchema.parse(outcome);
  expect(outcome.reason.length).toBeGreaterThan(0);
  return outcome;
}

const status = (raw: unknown) => check(raw).status;

describe('deliverable-present (output-format compliance)', () => {
  it('satisfied / not satisfied / cannot-evaluate', async () => {
    expect(status({ kind: 'deliverable-present', path: 'report.docx', format: 'docx' })).toBe('satisfied');
    expect(status({ kind: 'deliverable-present', path: 'notes/plan.md' })).toBe('satisfied');
    const wrong = check({ kind: 'deliverable-present', path: 'table.xlsx', format: 'xlsx' });
    expect(wrong).toMatchObject({ status: 'not-satisfied', reason: 'table.xlsx is csv by content, not xlsx' });
    const missing = check({ kind: 'deliverable-present', path: 'plan.md' });
    expect(missing.status).toBe('not-satisfied');
    expect(missing.evidence.join()).toContain('notes/plan.md');
    expect(status({ kind: 'deliverable-present', path: 'linked.docx' })).toBe('not-satisfied');
    // A file the parser could not finish: its type is unknown, so format compliance cannot be decided.
    const one = await mkdtemp(join(tmpdir(), 'assay-checks-slow-'));
    await copyFile(join(FIX, 'report.docx'), join(one, 'report.docx'));
    const slow = await buildSubmissionView(one, { limits: { perFileTimeoutMs: 1 } });
    await rm(one, { recursive: true, force: true });
    const outcome = evaluateCheck(
      checkSchema.parse({ kind: 'deliverable-present', path: 'report.docx', format: 'docx' }),
      slow,
    );
    expect(outcome.status).toBe('cannot-evaluate');
    expect(outcome.reason).toMatch(/did not finish within 1 ms/);
  });
});

describe('cell-value', () => {
  it('satisfied', () => {
    expect(status({ kind: 'cell-value', file: 'payroll-fixed.xlsx', cell: 'Payroll!B2', equals: 6000 })).toBe(
      'satisfied',
    );
    expect(
      status({ kind: 'cell-value', file: 'capex-corrected.xlsx', cell: "'Capex Schedule'!B3", equals: 4249.2 }),
    ).toBe('satisfied');
    expect(
      status({ kind: 'cell-value', file: 'payroll-fixed.xlsx', cell: 'Dashboard!B3', min: 36000, max: 37000 }),
    ).toBe('satisfied');
    expect(status({ kind: 'cell-value', file: 'summary.xlsx', cell: 'Summary!C3', equals: '2026-03-31' })).toBe(
      'satisfied',
    );
    expect(status({ kind: 'cell-value', file: 'summary.xlsx', cell: 'Summary!B8', matches: '^12\\.5%$' })).toBe(
      'satisfied',
    );
    expect(status({ kind: 'cell-value', file: 'data.csv', cell: 'data!C2', equals: 1200.5 })).toBe('satisfied');
  });

  it('not satisfied: the correction recorded in the note but not applied in the schedule', () => {
    const o = check({ kind: 'cell-value', file: 'capex.xlsx', cell: "'Capex Schedule'!B3", equals: 4249.2 });
    expect(o).toMatchObject({
      status: 'not-satisfied',
      reason: "capex.xlsx 'Capex Schedule'!B3 = 4841.5, expected 4249.2",
    });
  });

  it('not satisfied: formula exists, cached value None', () => {
    const o = check({ kind: 'cell-value', file: 'payroll.xlsx', cell: 'Dashboard!B3', min: 36000, max: 37000 });
    expect(o.status).toBe('not-satisfied');
    expect(o.reason).toBe(
      'payroll.xlsx Dashboard!B3 has formula =SUM(Payroll!B2:B7) but the file stores no cached value',
    );
    expect(status({ kind: 'cell-value', file: 'payroll.xlsx', cell: 'Nope!A1', equals: 1 })).toBe('not-satisfied');
    expect(status({ kind: 'cell-value', file: 'payroll.xlsx', cell: 'Dashboard!Z99', equals: 1 })).toBe(
      'not-satisfied',
    );
    expect(status({ kind: 'cell-value', file: 'summary.xlsx', cell: 'Summary!A8', equals: 3 })).toBe('not-satisfied');
    expect(status({ kind: 'cell-value', file: 'missing.xlsx', cell: 'A!A1', equals: 3 })).toBe('not-satisfied');
  });

  it('not satisfied: the file at the spreadsheet path is a document by content, so it has no cells', () => {
    expect(check({ kind: 'cell-value', file: 'report.docx', cell: 'Sheet1!B3', equals: 1 })).toMatchObject({
      status: 'not-satisfied',
      reason: 'report.docx is docx by content, not a spreadsheet (xlsx or csv): it has no cells to read',
    });
  });

  it('cannot-evaluate', () => {
    expect(status({ kind: 'cell-value', file: 'locked.pdf', cell: 'Sheet1!B3', equals: 1 })).toBe('cannot-evaluate');
    expect(status({ kind: 'cell-value', file: 'payroll-fixed.xlsx', cell: 'Payroll!B2' })).toBe('cannot-evaluate');
  });
});

describe('formula-cached', () => {
  it('satisfied / not satisfied / cannot-evaluate', () => {
    const ok = check({ kind: 'formula-cached', file: 'payroll-fixed.xlsx', range: 'Payroll!B2:D7' });
    expect(ok).toMatchObject({
      status: 'satisfied',
      reason: 'all 18 cells in payroll-fixed.xlsx Payroll!B2:D7 are formulas with cached values',
    });
    const none = check({ kind: 'formula-cached', file: 'payroll.xlsx', range: 'Payroll!B2:D7' });
    expect(none.status).toBe('not-satisfied');
    expect(none.reason).toMatch(
      /^18 of 18 cells .* fail: Payroll!B2 has formula =Employees!B2\+Employees!C2 but the file stores no cached value/,
    );
    expect(check({ kind: 'formula-cached', file: 'summary.xlsx', range: 'Summary!B6:B7' }).reason).toMatch(
      /caches an error value #DIV\/0!/,
    );
    expect(check({ kind: 'formula-cached', file: 'payroll-fixed.xlsx', range: 'Employees!B2:B7' }).reason).toMatch(
      /holds a typed value/,
    );
    expect(status({ kind: 'formula-cached', file: 'data.csv', range: 'data!B2:B4' })).toBe('not-satisfied');
    expect(status({ kind: 'formula-cached', file: 'report.docx', range: 'Sheet1!A1:B2' })).toBe('not-satisfied');
    expect(check({ kind: 'formula-cached', file: 'payroll-fixed.xlsx', range: 'Payroll!H20:H30' })).toMatchObject({
      status: 'not-satisfied',
      reason: 'payroll-fixed.xlsx Payroll!H20:H30 holds no values',
    });
    expect(status({ kind: 'formula-cached', file: 'locked.pdf', range: 'Sheet1!A1:B2' })).toBe('cannot-evaluate');
  });
});

describe('text-contains / text-matches / text-absent', () => {
  it('text-contains', () => {
    const o = check({ kind: 'text-contains', file: 'report.docx', text: 'hangzhou MARKET' });
    expect(o).toMatchObject({ status: 'satisfied', reason: '"hangzhou MARKET" found at paragraph 3' });
    expect(status({ kind: 'text-contains', file: 'report.docx', text: 'hangzhou MARKET', caseSensitive: true })).toBe(
      'not-satisfied',
    );
    expect(check({ kind: 'text-contains', file: 'notes/plan.md', text: '4249.2' }).reason).toContain('line 3');
    expect(check({ kind: 'text-contains', file: 'report.pdf', text: 'Licensing takes' }).reason).toContain('page 2');
    expect(check({ kind: 'text-contains', file: 'deck.pptx', text: 'Cite the 2025 survey' }).reason).toContain(
      'slide 2 notes',
    );
    expect(status({ kind: 'text-contains', file: 'report.docx', text: 'Shenzhen' })).toBe('not-satisfied');
    expect(status({ kind: 'text-contains', file: 'chart.png', text: 'Revenue' })).toBe('cannot-evaluate');
    expect(status({ kind: 'text-contains', file: 'locked.pdf', text: 'Revenue' })).toBe('cannot-evaluate');
  });

  it('text-matches', () => {
    expect(check({ kind: 'text-matches', file: 'summary.xlsx', pattern: 'Q[1-4]' }).reason).toContain('Summary!A3');
    expect(status({ kind: 'text-matches', file: 'report.docx', pattern: '(?i)payback in \\d+ months' })).toBe(
      'satisfied',
    );
    expect(status({ kind: 'text-matches', file: 'report.docx', pattern: 'payback in \\d+ years' })).toBe(
      'not-satisfied',
    );
    expect(check({ kind: 'text-matches', file: 'report.docx', pattern: '(unclosed' }).status).toBe('cannot-evaluate');
    const redos = check({ kind: 'text-matches', file: 'redos.txt', pattern: '^(a+)+$' });
    expect(redos).toMatchObject({ status: 'cannot-evaluate' });
    expect(redos.reason).toMatch(/took too long/);
  });

  it('text-absent: a superseded decision still present on a hidden slide', () => {
    const o = check({ kind: 'text-absent', file: 'deck.pptx', text: 'Shanghai first' });
    expect(o).toMatchObject({ status: 'not-satisfied', reason: '"Shanghai first" found at slide 5' });
    expect(status({ kind: 'text-absent', file: 'report.docx', text: 'Shanghai' })).toBe('satisfied');
    // A number is matched by value as a whole token: 4841.5 is in the flawed schedule as 4,841.5.
    expect(check({ kind: 'text-absent', file: 'capex.xlsx', text: '4841.5' }).reason).toContain("'Capex Schedule'!B3");
    expect(status({ kind: 'text-absent', file: 'report.docx', text: '4841.5' })).toBe('satisfied');
    expect(status({ kind: 'text-absent', file: 'chart.png', text: 'x' })).toBe('cannot-evaluate');
  });
});

describe('files-agree (cross-file consistency)', () => {
  it('satisfied / not satisfied / cannot-evaluate', () => {
    const memo = { file: 'notes/plan.md', pattern: '\\*\\*([\\d,.]+)\\*\\*' };
    const ok = check({
      kind: 'files-agree',
      a: memo,
      b: { file: 'capex-corrected.xlsx', cell: "'Capex Schedule'!B3" },
    });
    expect(ok.status).toBe('satisfied');
    expect(ok.evidence).toEqual([
      'notes/plan.md line 3 = "4,249.2"',
      "capex-corrected.xlsx 'Capex Schedule'!B3 = 4,249.2 [4249.2]",
    ]);
    const bad = check({ kind: 'files-agree', a: memo, b: { file: 'capex.xlsx', cell: "'Capex Schedule'!B3" } });
    expect(bad.status).toBe('not-satisfied');
    expect(
      status({
        kind: 'files-agree',
        a: { file: 'locked.pdf', pattern: 'Revenue ([\\d.]+)' },
        b: { file: 'capex.xlsx', cell: "'Capex Schedule'!B3" },
      }),
    ).toBe('cannot-evaluate');
    expect(
      status({
        kind: 'files-agree',
        a: { file: 'payroll.xlsx', cell: 'Dashboard!B3' },
        b: { file: 'payroll-fixed.xlsx', cell: 'Dashboard!B3' },
      }),
    ).toBe('not-satisfied');
    expect(
      status({
        kind: 'files-agree',
        a: { file: 'payroll-fixed.xlsx', cell: 'Dashboard!B3' },
        b: { file: 'payroll-fixed.xlsx', cell: 'Payroll!B2' },
        tolerance: 40000,
      }),
    ).toBe('satisfied');
  });
});

describe('row-count', () => {
  it('satisfied / not satisfied / cannot-evaluate', () => {
    expect(status({ kind: 'row-count', file: 'payroll.xlsx', sheet: 'Employees', min: 7, max: 7 })).toBe('satisfied');
    expect(status({ kind: 'row-count', file: 'data.csv', sheet: 'data', min: 4 })).toBe('satisfied');
    expect(check({ kind: 'row-count', file: 'payroll.xlsx', sheet: 'Employees', min: 10 })).toMatchObject({
      status: 'not-satisfied',
      reason: 'payroll.xlsx Employees has 7 non-empty rows (wanted 10..∞)',
    });
    expect(status({ kind: 'row-count', file: 'payroll.xlsx', sheet: 'Missing', min: 1 })).toBe('not-satisfied');
    expect(status({ kind: 'row-count', file: 'report.docx', sheet: 'Sheet1', min: 1 })).toBe('not-satisfied');
    expect(status({ kind: 'row-count', file: 'locked.pdf', sheet: 'Sheet1', min: 1 })).toBe('cannot-evaluate');
    expect(status({ kind: 'row-count', file: 'payroll.xlsx', sheet: 'Employees' })).toBe('cannot-evaluate');
  });
});

describe('section-present', () => {
  it('satisfied', () => {
    expect(status({ kind: 'section-present', file: 'payroll.xlsx', sheet: 'payroll' })).toBe('satisfied');
    expect(status({ kind: 'section-present', file: 'deck.pptx', slide: 5 })).toBe('satisfied');
    expect(check({ kind: 'section-present', file: 'report.docx', heading: 'Financial Plan' }).evidence).toEqual([
      'paragraph 4: 2. Financial Plan',
    ]);
    expect(status({ kind: 'section-present', file: 'deck.pptx', heading: 'Use of Funds' })).toBe('satisfied');
    expect(status({ kind: 'section-present', file: 'notes/plan.md', heading: 'Open Questions' })).toBe('satisfied');
    expect(check({ kind: 'section-present', file: 'report.pdf', heading: 'Risks' }).evidence).toEqual([
      'page 2: 3. Risks (not heading-styled)',
    ]);
  });

  it('not satisfied', () => {
    expect(status({ kind: 'section-present', file: 'payroll.xlsx', sheet: 'Summary' })).toBe('not-satisfied');
    expect(status({ kind: 'section-present', file: 'deck.pptx', slide: 9 })).toBe('not-satisfied');
    expect(status({ kind: 'section-present', file: 'report.docx', heading: 'Appendix' })).toBe('not-satisfied');
    expect(status({ kind: 'section-present', file: 'deck.pptx', slide: 2, heading: 'Competition' })).toBe(
      'not-satisfied',
    );
  });

  it('not satisfied: a document of another format has no sheets or slides', () => {
    expect(check({ kind: 'section-present', file: 'report.docx', slide: 1 })).toMatchObject({
      status: 'not-satisfied',
      reason: 'report.docx is docx by content, which has no slides (slide checks need a pptx)',
    });
    expect(check({ kind: 'section-present', file: 'data.csv', sheet: 'data' })).toMatchObject({
      status: 'not-satisfied',
      reason: 'data.csv is csv by content, which has no named sheets (sheet checks need an xlsx)',
    });
  });

  it('cannot-evaluate', () => {
    expect(status({ kind: 'section-present', file: 'chart.png', heading: 'Revenue' })).toBe('cannot-evaluate');
    expect(status({ kind: 'section-present', file: 'report.docx' })).toBe('cannot-evaluate');
    // A pdf has no heading structure: the words are there, but not as a heading line.
    expect(check({ kind: 'section-present', file: 'report.pdf', heading: 'Hangzhou market' }).status).toBe(
      'cannot-evaluate',
    );
    expect(status({ kind: 'section-present', file: 'locked.pdf', heading: 'Risks' })).toBe('cannot-evaluate');
  });
});

/** A valid one-page PDF with no text at all, as a scanner's image-only PDF reads to a text extractor. */
function textlessPdf(): string {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  const rows = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${rows}`;
  return `${out}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
}

describe('nothing found', () => {
  it('files-agree: a side that locates no value makes the files disagree, with the pattern as the reason', () => {
    const o = check({
      kind: 'files-agree',
      a: { file: 'notes/plan.md', pattern: '\\*\\*([\\d,.]+)\\*\\*' },
      b: { file: 'deck.pptx', pattern: 'nothing (here)' },
    });
    expect(o).toMatchObject({ status: 'not-satisfied', reason: '/nothing (here)/ locates no value in deck.pptx' });
    // The decided side wins over an unreadable one, on either side.
    const mixed = check({
      kind: 'files-agree',
      a: { file: 'locked.pdf', pattern: 'Revenue ([\\d.]+)' },
      b: { file: 'notes/plan.md', pattern: 'Budget: ([\\d.]+)' },
    });
    expect(mixed).toMatchObject({
      status: 'not-satisfied',
      reason: '/Budget: ([\\d.]+)/ locates no value in notes/plan.md',
    });
    const missing = check({
      kind: 'files-agree',
      a: { file: 'gone.md', pattern: '(x)' },
      b: { file: 'capex.xlsx', cell: "'Capex Schedule'!Z99" },
    });
    expect(missing).toMatchObject({
      status: 'not-satisfied',
      reason: "gone.md is not in the submission; capex.xlsx 'Capex Schedule'!Z99 is empty",
    });
  });

  describe('where the evidence could hide it: cannot-evaluate', () => {
    let cut: SubmissionView;
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'assay-checks-cut-'));
      await copyFile(join(FIX, 'notes.md'), join(dir, 'plan.md'));
      await copyFile(join(FIX, 'payroll-libreoffice.xlsx'), join(dir, 'payroll.xlsx'));
      await writeFile(join(dir, 'scan.pdf'), textlessPdf());
      cut = await buildSubmissionView(dir, { limits: { maxTextChars: 20, maxCells: 5 } });
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });
    const on = (raw: unknown) => {
      const outcome = evaluateCheck(checkSchema.parse(raw), cut);
      checkOutcomeSchema.parse(outcome);
      return outcome;
    };

    it('text cut at the size cap', () => {
      const o = on({ kind: 'text-contains', file: 'plan.md', text: 'Who signs the lease' });
      expect(o.status).toBe('cannot-evaluate');
      expect(o.reason).toBe(
        '"Who signs the lease" not found in plan.md, but plan.md was cut at a size cap, so the rest may hold it',
      );
      expect(on({ kind: 'text-absent', file: 'plan.md', text: 'Shanghai' }).status).toBe('cannot-evaluate');
      expect(on({ kind: 'text-matches', file: 'plan.md', pattern: 'COO' }).status).toBe('cannot-evaluate');
      expect(on({ kind: 'section-present', file: 'plan.md', heading: 'Open Questions' }).status).toBe(
        'cannot-evaluate',
      );
      const agree = on({
        kind: 'files-agree',
        a: { file: 'plan.md', pattern: '\\*\\*([\\d,.]+)\\*\\*' },
        b: { file: 'plan.md', pattern: '\\*\\*([\\d,.]+)\\*\\*' },
      });
      expect(agree.status).toBe('cannot-evaluate');
      // What the kept text does show still decides.
      expect(on({ kind: 'text-contains', file: 'plan.md', text: 'Project Notes' }).status).toBe('satisfied');
      expect(on({ kind: 'section-present', file: 'plan.md', heading: 'Project Notes' }).status).toBe('satisfied');
    });

    it('workbook cut at the cell cap', () => {
      const o = on({ kind: 'cell-value', file: 'payroll.xlsx', cell: 'Dashboard!B3', min: 1 });
      expect(o).toMatchObject({
        status: 'cannot-evaluate',
        reason: 'payroll.xlsx Dashboard!B3 is not among the cells kept (the workbook was cut at an evidence budget)',
      });
      expect(on({ kind: 'formula-cached', file: 'payroll.xlsx', range: 'Payroll!B2:D7' }).status).toBe(
        'cannot-evaluate',
      );
      // Rows are counted over the whole sheet, so the count still decides.
      expect(on({ kind: 'row-count', file: 'payroll.xlsx', sheet: 'Payroll', min: 7 }).status).toBe('satisfied');
      expect(on({ kind: 'row-count', file: 'payroll.xlsx', sheet: 'Payroll', min: 8 }).status).toBe('not-satisfied');
    });

    it('a PDF without a text layer', () => {
      const o = on({ kind: 'text-contains', file: 'scan.pdf', text: 'Revenue' });
      expect(o).toMatchObject({
        status: 'cannot-evaluate',
        reason: 'scan.pdf has no text layer (scanned pages?): its words can only be read from the page images',
      });
      expect(on({ kind: 'text-absent', file: 'scan.pdf', text: 'Revenue' }).status).toBe('cannot-evaluate');
      expect(on({ kind: 'section-present', file: 'scan.pdf', heading: 'Risks' }).status).toBe('cannot-evaluate');
      expect(
        on({
          kind: 'files-agree',
          a: { file: 'scan.pdf', pattern: 'Total ([\\d.]+)' },
          b: { file: 'payroll.xlsx', cell: 'Employees!B2' },
        }).status,
      ).toBe('cannot-evaluate');
    });
  });
});

// The guide's examples (docs/writing-a-benchmark.md): what it says each check decides on them is
// what the checks decide, and its worked example is what core's scoring computes from these decisions.
describe('the examples of the guide (docs/examples)', () => {
  const EXAMPLES = join(import.meta.dirname, '../../../docs/examples');
  const bench = loadBenchmark(EXAMPLES);
  const project = bench.projects[0]!;
  const criteria = project.evaluator.criteria;
  const views = new Map<string, SubmissionView>();
  const viewOf = async (dir: string) => views.get(dir) ?? views.set(dir, await buildSubmissionView(dir)).get(dir)!;
  const judgment = (s: CheckOutcome['status']) => (s === 'satisfied' ? 1 : s === 'not-satisfied' ? 0 : null);

  /** Decide every criterion by its check (a reused criterion by its source's) over `dir`, then score the list. */
  async function score(dir: string, list: readonly (Criterion | FinalCriterion)[]) {
    const view = await viewOf(dir);
    const scored = list.map((c): ScoredCriterion => {
      const [sub, id] = ('reuses' in c && c.reuses ? c.reuses : '/').split('/');
      const check = c.check ?? criteria.checkpoints[sub ?? '']?.find((x) => x.id === id)?.check;
      if (!check) throw new Error(`${c.id} has no check`);
      const target = 'target' in c ? c.target : undefined;
      return { ...c, target, h: judgment(evaluateCheck(check, view).status) };
    });
    return { h: Object.fromEntries(scored.map((c) => [c.id, c.h])), scored, s: scoreProjectFinal(scored) };
  }
  const reference = (sub: string) => join(project.evaluator.referenceDir, sub);
  const flaw = (sub: string) => join(project.evaluator.flawsDir, 'correction-not-applied', sub);

  it('the task reference satisfies every check of its rubric', async () => {
    const task = assayTasks(bench)[0]!;
    const view = await viewOf(task.evaluator.referenceDir);
    const decided = task.evaluator.rubric.items.flatMap((i) => (i.check ? [[i.id, evaluateCheck(i.check, view)]] : []));
    expect(decided.map(([id, o]) => [id, (o as CheckOutcome).status])).toEqual(
      decided.map(([id]) => [id, 'satisfied']),
    );
  });

  it('openpyxl leaves formulas without cached values, so a formula-cached check fails on its file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-guide-openpyxl-'));
    await copyFile(join(EXAMPLES, 'producers/variance-openpyxl.xlsx'), join(dir, 'variance.xlsx'));
    const view = await buildSubmissionView(dir);
    await rm(dir, { recursive: true, force: true });
    const items = new Map(assayTasks(bench)[0]!.evaluator.rubric.items.map((i) => [i.id, i.check!]));
    expect(evaluateCheck(items.get('variance-formulas')!, view)).toMatchObject({
      status: 'not-satisfied',
      reason: expect.stringMatching(
        /^5 of 5 cells in variance.xlsx Variance!D2:D6 fail: Variance!D2 has formula =C2-B2 but the file stores no cached value/,
      ),
    });
    expect(evaluateCheck(items.get('total-variance')!, view).status).toBe('not-satisfied');
  });

  it('text checks compare numbers by value: the change log quoting the old total would trip a stale-figure check', async () => {
    const view = await viewOf(reference('t3-apply-correction'));
    const stale = (file: string) => evaluateCheck({ kind: 'text-contains', file, text: '12,300' }, view).status;
    expect([stale('changes.md'), stale('memo.docx')]).toEqual(['satisfied', 'not-satisfied']);
    expect(evaluateCheck({ kind: 'text-contains', file: 'changes.md', text: '12300.00' }, view).status).toBe(
      'satisfied',
    );
  });

  it('the reference scores 100 at every checkpoint and on the final package', async () => {
    for (const [sub, list] of Object.entries(criteria.checkpoints))
      expect((await score(reference(sub), list)).s.score, sub).toBe(100);
    expect((await score(reference('t3-apply-correction'), criteria.final)).s).toMatchObject({ score: 100, gates: [] });
  });

  it('the worked example: correction-not-applied at t3 and in the final package', async () => {
    const t3 = await score(flaw('t3-apply-correction'), criteria.checkpoints['t3-apply-correction']!);
    expect(t3.h).toEqual({
      'quote-corrected': 0,
      'total-corrected': 0,
      'memo-corrected': 0,
      'memo-stale': 1,
      'change-logged': 1,
    });
    expect(t3.s.raw).toBeCloseTo((100 * -2) / 15, 10);
    expect(t3.s.score).toBe(0);
    expect(t3.s.criteria.every((r) => r.blockedBy.length === 0)).toBe(true); // nothing lost credit to a dependency
    const checkpoints = [100, 100, t3.s.score];
    expect(scoreProcess(checkpoints)).toBeCloseTo(200 / 3, 10);

    const final = await score(flaw('t3-apply-correction'), criteria.final);
    expect(final.h).toEqual({
      'aq-quote': 0,
      'aq-total-cached': 1,
      'cf-memo-total': 1,
      'cf-change-logged': 1,
      'pa-no-stale-total': 1,
      'pa-next-steps': 1,
      'fatal-old-quote': 1,
    });
    expect(final.s.criteria.map((r) => [r.id, r.effective, r.blockedBy])).toEqual([
      ['aq-quote', 0, []],
      ['aq-total-cached', 1, []],
      ['cf-memo-total', 0, ['aq-quote']],
      ['cf-change-logged', 0, ['cf-memo-total']],
      ['pa-no-stale-total', 1, []],
      ['pa-next-steps', 1, []],
      ['fatal-old-quote', 1, []],
    ]);
    expect(final.s).toMatchObject({ raw: 6.25, score: 0, gateTriggered: true, gates: ['fatal-old-quote'] });
    expect(scoreGroups(final.scored, (c) => c.target)).toEqual([
      { group: 'artifact-quality', score: 25, available: true, positiveWeight: 8 },
      { group: 'cross-file-consistency', score: 0, available: true, positiveWeight: 6 },
      { group: 'package-acceptance', score: 0, available: true, positiveWeight: 2 },
    ]);
    // Unjudged but decided: its dependency already fails, and the chain after it with it.
    const unjudged = (scored: ScoredCriterion[]) =>
      scoreProjectFinal(scored.map((c) => (c.id === 'cf-memo-total' ? { ...c, h: null } : c)));
    const open = unjudged(final.scored);
    expect(open.criteria.slice(2, 5).map((r) => [r.id, r.effective, r.blockedBy])).toEqual([
      ['cf-memo-total', 0, ['aq-quote']],
      ['cf-change-logged', 0, ['cf-memo-total']],
      ['pa-no-stale-total', 1, []],
    ]);
    expect(open).toMatchObject({ raw: 6.25, score: 0 });
    const onReference = unjudged((await score(reference('t3-apply-correction'), criteria.final)).scored);
    expect(onReference).toMatchObject({ score: null, unjudged: ['cf-memo-total', 'cf-change-logged'] });
    expect(scoreGroups(final.scored, (c) => c.dimension)).toEqual([
      { group: 'correctness', score: 0, available: true, positiveWeight: 6 },
      { group: 'usability', score: 100, available: true, positiveWeight: 4 },
      { group: 'consistency', score: 0, available: true, positiveWeight: 6 },
    ]);
  });
});
