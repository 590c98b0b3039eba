// The XML reader's refusals, A1 references, shared-formula filling and number-aware matching.
import { describe, expect, it } from 'vitest';
import { parseXml, textOf, XmlError } from '../src/xml/parse-xml.js';
import { parseRange, sheetAnchor, shiftFormula } from '../src/a1.js';
import { containsText, findPattern } from '../src/match-text.js';
import { extractBuffer } from '../src/extract/extract-file.js';
import { xlsxWithSheet } from './helpers/zip-writer.js';

describe('parseXml', () => {
  it('reads elements, attributes, entities and CDATA, dropping prefixes', () => {
    const el = parseXml('<?xml version="1.0"?><w:p a="1 &amp; 2"><w:t>x &lt; y</w:t><w:t><![CDATA[<z>]]></w:t></w:p>');
    expect(el.name).toBe('p');
    expect(el.attrs).toEqual({ a: '1 & 2' });
    expect(textOf(el)).toBe('x < y<z>');
  });

  it('refuses DOCTYPEs, excess depth and malformed markup', () => {
    const code = (xml: string) => {
      try {
        parseXml(xml, 50);
        return 'ok';
      } catch (err) {
        return (err as XmlError).code;
      }
    };
    expect(code('<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>')).toBe('doctype');
    expect(code(`${'<a>'.repeat(51)}${'</a>'.repeat(51)}`)).toBe('depth');
    expect(code(`${'<a>'.repeat(50)}${'</a>'.repeat(50)}`)).toBe('ok');
    expect(code('<a><b></a>')).toBe('malformed');
    expect(code('<a>')).toBe('malformed');
  });
});

describe('A1 references', () => {
  it('parses ranges with quoted sheet names', () => {
    expect(parseRange("'Capex Schedule'!B3")).toEqual({
      sheet: 'Capex Schedule',
      top: 3,
      left: 2,
      bottom: 3,
      right: 2,
    });
    expect(parseRange('Sheet1!$C$9:A1')).toEqual({ sheet: 'Sheet1', top: 1, left: 1, bottom: 9, right: 3 });
    expect(parseRange('Sheet1!B0')).toBeNull();
    expect(sheetAnchor("O'Brien", 'A1')).toBe("'O''Brien'!A1");
    expect(sheetAnchor('Payroll', 'A1')).toBe('Payroll!A1');
  });

  it('fills shared formulas like a spreadsheet program', () => {
    expect(shiftFormula('B2*$C$1+Sheet2!A2', 3, 1)).toBe('C5*$C$1+Sheet2!B5');
    expect(shiftFormula('SUM(A1:A3)&"A1"', 1, 0)).toBe('SUM(A2:A4)&"A1"');
    expect(shiftFormula("LOG10(B2)+'Q1 A1'!B2", 1, 0)).toBe("LOG10(B3)+'Q1 A1'!B3");
  });

  it('reads shared formulas and their cached values from sheet XML', async () => {
    const sheet =
      '<row r="1"><c r="A1"><v>1</v></c><c r="B1"><f t="shared" ref="B1:B3" si="0">A1*2</f><v>2</v></c></row>' +
      '<row r="2"><c r="A2"><v>2</v></c><c r="B2"><f t="shared" si="0"/><v>4</v></c></row>' +
      '<row r="3"><c r="A3"><v>3</v></c><c r="B3"><f t="shared" si="0"/></c></row>';
    const r = await extractBuffer(xlsxWithSheet(sheet), 'shared.xlsx');
    const cells = r.evidence?.format === 'xlsx' ? r.evidence.sheets[0]!.cells.filter((c) => c.col === 2) : [];
    expect(cells.map((c) => [c.ref, c.formula, c.cached, c.value])).toEqual([
      ['B1', 'A1*2', true, 2],
      ['B2', 'A2*2', true, 4],
      ['B3', 'A3*2', false, null],
    ]);
  });
});

describe('text matching', () => {
  it('matches numbers by value as whole tokens', () => {
    expect(containsText('retains 4,841.50 in the table', '4841.5')).toBe(true);
    expect(containsText('total 14841.5', '4841.5')).toBe(false);
    expect(containsText('rate 41%', '41')).toBe(true);
    expect(containsText('Gross\u00a0margin', 'gross margin')).toBe(true);
  });

  it('runs patterns with a time limit', () => {
    expect(findPattern([{ anchor: 'a', text: 'Q3 2026' }], '(?i)q(\\d) (\\d+)')).toEqual([
      { unit: 0, match: 'Q3 2026', groups: ['3', '2026'] },
    ]);
    expect(() => findPattern([{ anchor: 'a', text: `${'a'.repeat(40)}!` }], '^(a+)+$', { timeoutMs: 200 })).toThrow(
      /timed out/,
    );
  });
});
