import { describe, expect, it } from 'vitest';
import { findAnchors } from '../src/evidence-anchors.js';

describe('findAnchors', () => {
  const files = ['debt_schedule.xlsx', 'lender_note.md', 'deck/q2.pptx'];

  it('resolves cells, slides and lines to the file the text names', () => {
    const found = findAnchors(
      [
        'debt_schedule.xlsx Summary!B2: =SUM(Schedule!D2:D21) → 378,600.28 [378600.277005986]',
        "debt_schedule.xlsx 'Capex Plan'!B2:B4 are formulas",
        '"3,622,650" found at slide 2, slide 4 table 1 row 2 of q2.pptx',
      ],
      files,
      null,
    );
    expect(found.map((a) => [a.file, a.anchor, a.kind, a.page])).toEqual([
      ['debt_schedule.xlsx', 'Summary!B2', 'cell', null],
      ['debt_schedule.xlsx', 'Schedule!D2:D21', 'cell', null],
      ['debt_schedule.xlsx', "'Capex Plan'!B2:B4", 'cell', null],
      ['deck/q2.pptx', 'slide 2', 'slide', 2],
      ['deck/q2.pptx', 'slide 4 table 1 row 2', 'slide', 4],
    ]);
  });

  it("uses the check's file for a text that names none, and finds nothing in plain prose", () => {
    expect(findAnchors(['line 9: - Fixed rate: 5.75%'], files, 'lender_note.md')).toEqual([
      { file: 'lender_note.md', anchor: 'line 9', kind: 'line', page: null },
    ]);
    expect(findAnchors(['no judge configured (judge.mode is checks-only)'], files, null)).toEqual([]);
  });
});
