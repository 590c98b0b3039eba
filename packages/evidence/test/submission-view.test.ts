// The whole-submission view: manifest, text with stable anchors, JSON form, and the judge tools.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildSubmissionView,
  readCellRange,
  renderSubmissionJson,
  renderSubmissionText,
  searchText,
} from '../src/index.js';
import type { SubmissionView } from '../src/index.js';

const FIX = join(import.meta.dirname, 'fixtures');
let root: string;
let view: SubmissionView;
let text: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'assay-view-'));
  await mkdir(join(root, 'finance'));
  await copyFile(join(FIX, 'payroll-libreoffice.xlsx'), join(root, 'finance', 'payroll.xlsx'));
  await copyFile(join(FIX, 'report.docx'), join(root, 'report.docx'));
  await copyFile(join(FIX, 'deck.pptx'), join(root, 'deck.pptx'));
  await copyFile(join(FIX, 'report.pdf'), join(root, 'report.pdf'));
  await copyFile(join(FIX, 'data.csv'), join(root, 'data.csv'));
  await copyFile(join(FIX, 'notes.md'), join(root, 'notes.md'));
  view = await buildSubmissionView(root);
  text = renderSubmissionText(view);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('buildSubmissionView', () => {
  it('lists every file, sorted, with type by content, size and sha256', async () => {
    expect(view.files.map((f) => [f.path, f.format])).toEqual([
      ['data.csv', 'csv'],
      ['deck.pptx', 'pptx'],
      ['finance/payroll.xlsx', 'xlsx'],
      ['notes.md', 'md'],
      ['report.docx', 'docx'],
      ['report.pdf', 'pdf'],
    ]);
    const docx = view.files.find((f) => f.path === 'report.docx')!;
    const bytes = await readFile(join(root, 'report.docx'));
    expect(docx).toMatchObject({
      entry: 'file',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      notes: [],
    });
    expect(view.notes).toEqual([]);
  });

  it('renders text with stable anchors for cells, slides, pages, paragraphs, lines', () => {
    expect(text).toContain('- finance/payroll.xlsx — xlsx, ');
    expect(text).toContain('Payroll!B2: =Employees!B2+Employees!C2 → 6,000.00 [6000] {#,##0.00}');
    expect(text).toContain('### slide 4 — Revenue Forecast');
    expect(text).toContain('[slide 4 chart 1] barChart');
    expect(text).toContain('### page 2');
    expect(text).toContain('[paragraph 4] (heading 1) 2. Financial Plan');
    expect(text).toContain('[table 1]\n| Year | Revenue | EBITDA |');
    expect(text).toContain('row 4: East, coastal | 130 | 1,310.25');
    expect(text).toMatch(/ 3 \| The plan uses \*\*4,249\.2\*\* for 2026\./);
    // Deterministic: the same view renders the same text.
    expect(renderSubmissionText(view)).toBe(text);
  });

  it('cuts long sheets in text but keeps every cell reachable', () => {
    const short = renderSubmissionText(view, { maxCellsPerSheet: 3 });
    expect(short).toContain('… 18 more cells in this sheet (read them by range)');
    expect(readCellRange(view, 'Employees!C7', { file: 'finance/payroll.xlsx' })).toMatchObject({
      ok: true,
      text: 'Employees!C7: 750 {#,##0}',
    });
  });

  it('round-trips as JSON', () => {
    const back = JSON.parse(renderSubmissionJson(view)) as SubmissionView;
    expect(back).toEqual(view);
    expect(renderSubmissionText(back)).toBe(text);
  });
});

describe('judge tools', () => {
  it('readCellRange returns a grid with formulas and cached values', () => {
    const r = readCellRange(view, 'Payroll!A1:B3', { file: 'finance/payroll.xlsx' });
    if (!r.ok) throw new Error(r.error);
    expect(r.range).toBe('Payroll!A1:B3');
    expect(r.rows.map((row) => row.map((c) => c?.value ?? null))).toEqual([
      ['Name', 'Gross'],
      ['Ada Park', 6000],
      ['Ben Ortiz', 5450],
    ]);
    expect(r.text.split('\n')[3]).toBe('Payroll!B2: =Employees!B2+Employees!C2 → 6,000.00 [6000] {#,##0.00}');
    expect(readCellRange(view, 'Nope!A1', { file: 'finance/payroll.xlsx' })).toMatchObject({ ok: false });
    expect(readCellRange(view, 'Payroll!A1')).toMatchObject({
      ok: false,
      error: 'name the file: spreadsheets here are data.csv, finance/payroll.xlsx',
    });
    expect(readCellRange(view, 'A1:A2', { file: 'data.csv' })).toMatchObject({
      ok: true,
      text: 'data!A1: "region"\ndata!A2: "North"',
    });
    expect(readCellRange(view, 'Payroll!A1:ZZ9999', { file: 'finance/payroll.xlsx' })).toMatchObject({ ok: false });
  });

  it('searchText finds text with its file and anchor, plain or regex', () => {
    expect(searchText(view, 'hangzhou').hits.map((h) => `${h.file} ${h.anchor}`)).toEqual([
      'report.docx paragraph 3',
      'report.pdf page 1',
    ]);
    expect(searchText(view, '4249.2').hits.map((h) => `${h.file} ${h.anchor}`)).toEqual([
      'notes.md line 3',
      'report.docx paragraph 8',
      'report.pdf page 1',
    ]);
    expect(searchText(view, 'Ben Ortiz', { file: 'finance/payroll.xlsx' }).hits.map((h) => h.anchor)).toEqual([
      'Employees!A3',
      'Payroll!A3',
      'chart 1 (Dashboard)',
    ]);
    expect(searchText(view, 'slide|survey', { regex: true }).hits.map((h) => h.anchor)).toEqual(['slide 2 notes']);
    const capped = searchText(view, 'e', { maxHits: 2 });
    expect(capped).toMatchObject({ truncated: true });
    expect(capped.hits).toHaveLength(2);
    expect(searchText(view, '(', { regex: true }).error).toBeDefined();
  });
});
