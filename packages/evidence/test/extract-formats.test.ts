// Every format, from real producers' files (see fixtures/generate.py), extracted in-process.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { extractFile } from '../src/extract/extract-file.js';
import type {
  CellEvidence,
  CsvEvidence,
  DocxEvidence,
  ImageEvidence,
  PdfEvidence,
  PptxEvidence,
  TextEvidence,
  XlsxEvidence,
} from '../src/types.js';

const FIX = join(import.meta.dirname, 'fixtures');

async function evidenceOf<T>(name: string): Promise<T> {
  const r = await extractFile(join(FIX, name), name);
  expect(r.notes).toEqual([]);
  expect(r.evidence).not.toBeNull();
  return r.evidence as T;
}

function cell(ev: XlsxEvidence, sheet: string, ref: string): CellEvidence | undefined {
  return ev.sheets.find((s) => s.name === sheet)?.cells.find((c) => c.ref === ref);
}

describe('xlsx', () => {
  it('openpyxl: formulas kept apart from their (absent) cached values — the paper case', async () => {
    const ev = await evidenceOf<XlsxEvidence>('payroll-openpyxl.xlsx');
    expect(ev.sheets.map((s) => s.name)).toEqual(['Employees', 'Payroll', 'Dashboard']);
    expect(cell(ev, 'Payroll', 'B2')).toMatchObject({
      formula: 'Employees!B2+Employees!C2',
      cached: false,
      value: null,
      kind: 'empty',
      numFmt: '#,##0.00',
    });
    expect(cell(ev, 'Dashboard', 'B3')).toMatchObject({ formula: 'SUM(Payroll!B2:B7)', cached: false });
    expect(cell(ev, 'Dashboard', 'B5')).toMatchObject({ value: 0.2, text: '20%' });
    expect(cell(ev, 'Employees', 'B2')).toMatchObject({ value: 5200, text: '5,200.00' });
    expect(cell(ev, 'Employees', 'A1')?.comment).toBe('Source: HR export 2026-01');
    expect(ev.sheets[2]!.merges).toEqual(['A1:D1']);
    expect(ev.definedNames).toEqual([{ name: 'TotalPayroll', refersTo: 'Dashboard!$B$3' }]);
    expect(ev.charts).toHaveLength(1);
    expect(ev.charts[0]).toMatchObject({ location: 'Dashboard', types: ['barChart'], title: 'Gross pay' });
    expect(ev.charts[0]!.series[0]).toMatchObject({ valuesRef: "'Payroll'!$B$2:$B$7", values: [] });
  });

  it('LibreOffice: the same workbook recalculated carries cached results, and chart caches', async () => {
    const ev = await evidenceOf<XlsxEvidence>('payroll-libreoffice.xlsx');
    expect(cell(ev, 'Payroll', 'B2')).toMatchObject({
      formula: 'Employees!B2+Employees!C2',
      cached: true,
      value: 6000,
      text: '6,000.00',
    });
    expect(cell(ev, 'Payroll', 'A2')).toMatchObject({ cached: true, kind: 'string', value: 'Ada Park' });
    expect(cell(ev, 'Dashboard', 'B3')).toMatchObject({ cached: true, value: 36750 });
    expect(ev.charts[0]!.series[0]).toMatchObject({ name: 'Gross', values: [6000, 5450, 7000, 6200, 5550, 6550] });
    expect(ev.charts[0]!.series[0]!.categories[0]).toBe('Ada Park');
  });

  it('exceljs: dates, error results, rich text, booleans, hidden sheets, defined names', async () => {
    const ev = await evidenceOf<XlsxEvidence>('exceljs-report.xlsx');
    expect(cell(ev, 'Summary', 'C3')).toMatchObject({ kind: 'date', date: '2026-03-31', text: '2026-03-31' });
    expect(cell(ev, 'Summary', 'B6')).toMatchObject({
      formula: 'SUM(B3:B5)',
      cached: true,
      value: 3540.75,
      text: '3,540.75',
    });
    expect(cell(ev, 'Summary', 'B7')).toMatchObject({ formula: 'B6/0', cached: true, kind: 'error', value: '#DIV/0!' });
    expect(cell(ev, 'Summary', 'A8')).toMatchObject({ kind: 'string', value: 'Growth on track' });
    expect(cell(ev, 'Summary', 'B8')).toMatchObject({ value: 0.125, text: '12.5%' });
    expect(cell(ev, 'Summary', 'C8')).toMatchObject({ kind: 'boolean', value: true, text: 'TRUE' });
    expect(ev.sheets.find((s) => s.name === 'Lookup')?.state).toBe('hidden');
    expect(ev.definedNames).toContainEqual({ name: 'TotalRevenue', refersTo: 'Summary!$B$6' });
    expect(ev.sheets[0]!.merges).toEqual(['A1:C1']);
  });

  it('the correction case: the change note says 4,249.2, the operative schedule still says 4,841.5', async () => {
    const flawed = await evidenceOf<XlsxEvidence>('capex-flawed.xlsx');
    const fixed = await evidenceOf<XlsxEvidence>('capex-corrected.xlsx');
    expect(cell(flawed, 'Capex Schedule', 'B3')?.value).toBe(4841.5);
    expect(cell(fixed, 'Capex Schedule', 'B3')?.value).toBe(4249.2);
    expect(String(cell(flawed, 'Change Note', 'B2')?.value)).toContain('4,249.2');
    expect(cell(flawed, 'Capex Schedule', 'B6')).toMatchObject({ formula: 'SUM(B2:B5)', cached: true, value: 12451.9 });
  });

  it('agrees cell by cell with an independent reader (exceljs) on values and formulas', async () => {
    for (const name of ['exceljs-report.xlsx', 'capex-flawed.xlsx', 'capex-corrected.xlsx']) {
      const ours = await evidenceOf<XlsxEvidence>(name);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(join(FIX, name));
      let compared = 0;
      wb.eachSheet((ws) => {
        ws.eachRow((row) =>
          row.eachCell((c) => {
            if (c.master.address !== c.address) return; // exceljs repeats a merge's value in its other cells
            const mine = cell(ours, ws.name, c.address);
            const v = c.value as unknown;
            if (v && typeof v === 'object' && 'formula' in v) {
              expect(mine?.formula).toBe((v as { formula: string }).formula);
              const result = (v as { result?: unknown }).result;
              if (typeof result === 'number') expect(mine?.value).toBeCloseTo(result, 9);
            } else if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') {
              expect(mine?.value).toBe(v);
            } else if (v instanceof Date) {
              expect(mine?.date).toBe(v.toISOString().slice(0, 10));
            }
            compared++;
          }),
        );
      });
      expect(compared).toBeGreaterThan(10);
    }
  });
});

describe('docx', () => {
  it('python-docx: headings, lists, tables in order, comments, header and footer', async () => {
    const ev = await evidenceOf<DocxEvidence>('report.docx');
    const paras = ev.blocks.filter((b) => b.type === 'paragraph');
    expect(paras[0]).toMatchObject({ text: 'Market Entry Report', headingLevel: 0 });
    expect(paras.find((p) => p.text === '3.1 Regulatory')).toMatchObject({ headingLevel: 2 });
    expect(paras.find((p) => p.text.startsWith('We recommend'))?.text).toBe(
      'We recommend entering the Hangzhou market in Q3 2026 with a projected revenue of 12.4 million in year one.',
    );
    expect(paras.filter((p) => p.list).map((p) => p.text)).toEqual([
      'Gross margin 41%',
      'Payback in 26 months',
      'Capex 4,249.2 (CNY 10,000) in 2026',
    ]);
    const tbl = ev.blocks.find((b) => b.type === 'table');
    expect(tbl).toMatchObject({
      index: 1,
      rows: [
        ['Year', 'Revenue', 'EBITDA'],
        ['2026', '12.4', '1.9'],
        ['2027', '18.0', '3.6'],
        ['2028', '23.5', '5.2'],
      ],
    });
    const order = ev.blocks.map((b) => (b.type === 'table' ? 'TABLE' : b.text));
    expect(order.indexOf('TABLE')).toBeLessThan(order.indexOf('3. Risks'));
    expect(ev.comments).toEqual([{ id: '0', author: 'Reviewer', text: 'Check this figure against the model.' }]);
    expect(ev.headers).toEqual(['Acme Health — Confidential']);
    expect(ev.footers).toEqual(['Prepared for the board, January 2026']);
  });

  it('LibreOffice-written docx: heading styles and tables', async () => {
    const ev = await evidenceOf<DocxEvidence>('memo-libreoffice.docx');
    expect(ev.blocks[0]).toMatchObject({ type: 'paragraph', text: 'Board Memo', headingLevel: 1 });
    expect(ev.blocks.find((b) => b.type === 'table')).toMatchObject({
      rows: [
        ['Item', 'Owner'],
        ['Hire CFO', 'Board'],
        ['Open Hangzhou office', 'COO'],
      ],
    });
  });
});

describe('pptx', () => {
  it('python-pptx: slides in order with titles, text, tables, charts, notes, hidden slides', async () => {
    const ev = await evidenceOf<PptxEvidence>('deck.pptx');
    expect(ev.slides.map((s) => s.title)).toEqual([
      'Series A Pitch',
      'Problem',
      'Use of Funds',
      'Revenue Forecast',
      'Appendix (hidden)',
    ]);
    expect(ev.slides[1]!.texts).toEqual(['Clinics lose 18% of revenue to no-shows\nScheduling is still done by phone']);
    expect(ev.slides[1]!.notes).toBe('Cite the 2025 survey.');
    expect(ev.slides[2]!.tables[0]).toEqual([
      ['Item', 'Amount'],
      ['R&D', '2.0M'],
      ['Sales', '1.5M'],
      ['Ops', '0.5M'],
    ]);
    expect(ev.slides[3]!.charts[0]!.series[0]).toMatchObject({
      name: 'Revenue',
      categories: ['2026', '2027', '2028'],
      values: [12.4, 18, 23.5],
    });
    expect(ev.slides[4]!.hidden).toBe(true);
    expect(ev.slides[0]!.hidden).toBe(false);
  });
});

describe('pdf, images, text formats', () => {
  it('pdf (LibreOffice export): page count and text per page', async () => {
    const ev = await evidenceOf<PdfEvidence>('report.pdf');
    expect(ev.pageCount).toBe(2);
    expect(ev.pages[0]!.text).toContain('Market Entry Report');
    expect(ev.pages[1]!.text).toContain('3.1 Regulatory');
    expect(ev.pages[0]!.text).not.toContain('Regulatory');
    expect(ev.info.Producer).toMatch(/LibreOffice/);
  });

  it('images: dimensions from headers (poppler png/jpeg, svg)', async () => {
    expect(await evidenceOf<ImageEvidence>('page.png')).toEqual({ format: 'png', width: 255, height: 330 });
    expect(await evidenceOf<ImageEvidence>('photo.jpg')).toEqual({ format: 'jpg', width: 170, height: 220 });
    expect(await evidenceOf<ImageEvidence>('logo.svg')).toEqual({ format: 'svg', width: 120, height: 40 });
  });

  it('csv rows with quoted delimiters', async () => {
    const ev = await evidenceOf<CsvEvidence>('data.csv');
    expect(ev.rows).toEqual([
      ['region', 'units', 'revenue'],
      ['North', '120', '1,200.50'],
      ['South', '95', '950.00'],
      ['East, coastal', '130', '1,310.25'],
    ]);
  });

  it('md headings, html visible text, json, txt, code', async () => {
    const md = await evidenceOf<TextEvidence>('notes.md');
    expect(md.headings).toEqual([
      { level: 1, text: 'Project Notes', line: 1 },
      { level: 2, text: 'Open Questions', line: 5 },
    ]);
    const html = await evidenceOf<TextEvidence>('page.html');
    expect(html.text).toBe('Status\nStatus page\nAll systems nominal.');
    expect(html.headings).toEqual([{ level: 1, text: 'Status page', line: 2 }]);
    expect((await evidenceOf<TextEvidence>('data.json')).format).toBe('json');
    expect((await evidenceOf<TextEvidence>('readme.txt')).lineCount).toBe(3);
    expect((await evidenceOf<TextEvidence>('analysis.py')).format).toBe('code');
  });
});
