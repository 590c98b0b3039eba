// The exact text a judge reads and the text units that checks and search see, pinned for every
// fixture format: any change to a rendered line or an anchor shows up as a snapshot diff.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSubmissionView, renderFileText, renderSubmissionText, textUnits } from '../src/index.js';
import type { FileEvidence, FileView, SubmissionView } from '../src/index.js';

const FIX = join(import.meta.dirname, 'fixtures');
let root: string;
let view: SubmissionView;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'assay-text-forms-'));
  // Encrypted files carry no evidence: nothing to render beyond their notes.
  for (const name of await readdir(FIX)) {
    if (name.includes('.') && !name.startsWith('encrypted')) await copyFile(join(FIX, name), join(root, name));
  }
  view = await buildSubmissionView(root);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function fileOf(path: string, evidence: FileEvidence): FileView {
  return {
    path,
    entry: 'file',
    format: evidence.format,
    type: evidence.format,
    size: 0,
    sha256: null,
    evidence,
    notes: [],
  };
}

/** What the fixtures do not reach: footnotes, titles and lists, slide images, scoped names, empty series. */
const edgeFiles: FileView[] = [
  fileOf('memo.docx', {
    format: 'docx',
    blocks: [
      { type: 'paragraph', index: 1, text: 'Memo', headingLevel: 0 },
      { type: 'paragraph', index: 2, text: 'first point', list: true },
      { type: 'table', index: 1, rows: [['a\nb', 'c']] },
    ],
    comments: [{ id: '3', author: '', text: 'anonymous' }],
    headers: [],
    footers: [],
    footnotes: ['see appendix'],
  }),
  fileOf('deck.pptx', {
    format: 'pptx',
    slides: [
      {
        index: 1,
        title: null,
        hidden: false,
        texts: ['body'],
        tables: [[['x', 'y']]],
        notes: '',
        charts: [
          {
            part: 'c1',
            location: null,
            types: [],
            title: null,
            series: [{ name: null, categories: [], values: [] }],
          },
        ],
        images: [
          { name: 'pic.png', alt: 'a logo' },
          { name: 'bare.png', alt: '' },
        ],
      },
    ],
  }),
  fileOf('book.xlsx', {
    format: 'xlsx',
    sheets: [
      {
        name: 'Data',
        state: 'hidden',
        dimension: null,
        rowCount: 1,
        cellCount: 3,
        cells: [
          { ref: 'A1', row: 1, col: 1, kind: 'date', value: 46000, text: '2025-12-09', date: '2025-12-09' },
          { ref: 'B1', row: 1, col: 2, kind: 'string', value: '', text: '', formula: 'A1', cached: true },
          { ref: 'C1', row: 1, col: 3, kind: 'number', value: 1, text: '1', comment: 'one' },
        ],
        merges: [],
      },
    ],
    date1904: false,
    definedNames: [{ name: 'Local', refersTo: 'Data!$A$1', scope: 'Data' }],
    charts: [
      {
        part: 'c1',
        location: 'Data',
        types: ['lineChart'],
        title: 'Trend',
        series: [{ name: 'S', valuesRef: 'Data!$C$1', categories: [null, 'b'], values: [null, 2] }],
      },
    ],
  }),
  fileOf('empty.jpg', { format: 'jpg', width: null, height: null }),
];

describe('text forms', () => {
  it('renders every fixture exactly as before', async () => {
    await expect(renderSubmissionText(view)).toMatchFileSnapshot('__snapshots__/text-forms.submission.txt');
    const short = view.files.map((f) => renderFileText(f, { maxCellsPerSheet: 2, maxCharsPerFile: 300 }));
    await expect(short.join('\n\n')).toMatchFileSnapshot('__snapshots__/text-forms.cut.txt');
  });

  it('lists every fixture text unit with its anchor exactly as before', async () => {
    const units = view.files.flatMap((f) => textUnits(f).map((u) => `${f.path} [${u.anchor}] ${u.text}`));
    await expect(units.join('\n')).toMatchFileSnapshot('__snapshots__/text-forms.units.txt');
  });

  it('renders and lists the edge cases no fixture reaches', () => {
    expect(edgeFiles.map((f) => renderFileText(f)).join('\n\n')).toMatchInlineSnapshot(`
      "## memo.docx (docx)
      [paragraph 1] (title) Memo
      [paragraph 2] (list) first point
      [table 1]
      | a / b | c |
      [footnote 1] see appendix
      [comment 3] anonymous

      ## deck.pptx (pptx)
      ### slide 1
      body
      [slide 1 table 1]
      | x | y |
      [slide 1 chart 1] chart
        series "": (no cached values)
      [slide 1 image] pic.png: a logo
      [slide 1 image] bare.png

      ## book.xlsx (xlsx)
      ### sheet "Data" (hidden, no dimension, 1 rows, 3 cells)
      Data!A1: 2025-12-09 [46000]
      Data!B1: =A1 → ""
      Data!C1: 1 (comment: one)
      [chart 1 on Data] lineChart "Trend"
        series "S" (Data!$C$1): 1=∅, b=2
      defined names: Local = Data!$A$1 (in Data)

      ## empty.jpg (jpg)
      image ?x? (jpg)"
    `);
    expect(edgeFiles.flatMap((f) => textUnits(f).map((u) => `${f.path} [${u.anchor}] ${u.text}`)))
      .toMatchInlineSnapshot(`
      [
        "memo.docx [paragraph 1] Memo",
        "memo.docx [paragraph 2] first point",
        "memo.docx [table 1 row 1] a
      b | c",
        "memo.docx [footnote 1] see appendix",
        "memo.docx [comment 3] anonymous",
        "deck.pptx [slide 1] body",
        "deck.pptx [slide 1 table 1 row 1] x | y",
        "deck.pptx [slide 1 chart 1] : ",
        "deck.pptx [slide 1 image] a logo",
        "book.xlsx [Data!A1] 2025-12-09 [46000]",
        "book.xlsx [Data!B1] =A1",
        "book.xlsx [Data!C1] 1",
        "book.xlsx [Data!C1 comment] one",
        "book.xlsx [chart 1 (Data)] Trend
      S: =, b=2",
        "book.xlsx [name Local] Local = Data!$A$1",
      ]
    `);
  });
});
