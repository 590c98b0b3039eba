// Deliverables that are small on disk but expand when read: each writes one file (or special
// entry) at `path`. Byte-level (zip-writer, pdf-writer) where no producer would write such a file;
// openpyxl (Debian's python3-openpyxl) where a real producer does. Shared by the tests and
// bench/hostile.
import { execFileSync } from 'node:child_process';
import { link, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { contentTypes, deflateStreamed, makeZip, repeatTo, type ZipEntryInput } from './zip-writer.js';
import { makePdf, textContent } from './pdf-writer.js';

const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
const NS_A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const NS_C = 'http://schemas.openxmlformats.org/drawingml/2006/chart';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** Debian's python3, which has python3-openpyxl and python3-docx (a pyenv shim may not). */
export const SYSTEM_PYTHON = '/usr/bin/python3';

const b = (s: string) => Buffer.from(s, 'utf8');
const rels = (items: Array<[id: string, type: string, target: string]>) =>
  b(
    `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items
      .map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`)
      .join('')}</Relationships>`,
  );

/** A part whose middle is `middle` repeated `times` times, deflated as a stream (level 9). */
async function repeatedPart(name: string, head: string, middle: string, times: number, tail: string) {
  const chunk = b(middle.repeat(Math.max(1, Math.floor(65_536 / middle.length))));
  const per = chunk.length / middle.length;
  const pieces = function* () {
    yield b(head);
    yield* repeatTo(chunk, Math.floor(times / per) * chunk.length);
    yield b(middle.repeat(times % per));
    yield b(tail);
  };
  return { name, data: Buffer.alloc(0), raw: await deflateStreamed(pieces(), { level: 9 }) } satisfies ZipEntryInput;
}

function xlsxShell(extra: ZipEntryInput[], sheetRels: Array<[string, string, string]> = []): ZipEntryInput[] {
  const out: ZipEntryInput[] = [
    { name: '[Content_Types].xml', data: contentTypes('xlsx') },
    { name: '_rels/.rels', data: rels([['rId1', 'officeDocument', 'xl/workbook.xml']]) },
    {
      name: 'xl/workbook.xml',
      data: b(
        `<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_R}"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: rels([
        ['rId1', 'worksheet', 'worksheets/sheet1.xml'],
        ['rId2', 'sharedStrings', 'sharedStrings.xml'],
      ]),
    },
    ...extra,
  ];
  if (sheetRels.length) out.push({ name: 'xl/worksheets/_rels/sheet1.xml.rels', data: rels(sheetRels) });
  return out;
}

/**
 * A workbook whose `cells` cells all reference one shared string of `chars` characters: a few KB
 * on disk, `cells * chars` characters of cell text when read.
 */
export async function writeSharedStringsBomb(path: string, cells: number, chars: number): Promise<void> {
  const perRow = 1000;
  const row = `<row>${'<c t="s"><v>0</v></c>'.repeat(perRow)}</row>`;
  const sheet = await repeatedPart(
    'xl/worksheets/sheet1.xml',
    `<worksheet xmlns="${NS_MAIN}"><sheetData>`,
    row,
    Math.ceil(cells / perRow),
    '</sheetData></worksheet>',
  );
  const sst = await repeatedPart(
    'xl/sharedStrings.xml',
    `<sst xmlns="${NS_MAIN}"><si><t>`,
    'A',
    chars,
    '</t></si></sst>',
  );
  await writeFile(path, makeZip(xlsxShell([sheet, sst])));
}

/** The same bomb as a real producer writes it: openpyxl, `cells` cells holding one long string. */
export function writeOpenpyxlSharedStrings(path: string, cells: number, chars: number): void {
  const script = `
import sys
from openpyxl import Workbook
wb = Workbook()
ws = wb.active
text = "A" * ${chars}
cols = 100
for i in range(${cells}):
    ws.cell(row=i // cols + 1, column=i % cols + 1, value=text)
wb.save(sys.argv[1])
`;
  execFileSync(SYSTEM_PYTHON, ['-c', script, path], { stdio: ['ignore', 'ignore', 'inherit'] });
}

/** A workbook with one chart whose `series` series each declare `points` cached points (and hold none). */
export async function writeChartPointsBomb(path: string, series: number, points: number): Promise<void> {
  const ser = `<c:ser><c:val><c:numRef><c:f>Data!A1</c:f><c:numCache><c:ptCount val="${points}"/></c:numCache></c:numRef></c:val></c:ser>`;
  const chart = await repeatedPart(
    'xl/charts/chart1.xml',
    `<c:chartSpace xmlns:c="${NS_C}"><c:chart><c:plotArea><c:barChart>`,
    ser,
    series,
    '</c:barChart></c:plotArea></c:chart></c:chartSpace>',
  );
  const drawing = b(
    `<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:c="${NS_C}" xmlns:r="${NS_R}"><xdr:graphicFrame><c:chart r:id="rId1"/></xdr:graphicFrame></xdr:wsDr>`,
  );
  await writeFile(
    path,
    makeZip(
      xlsxShell(
        [
          { name: 'xl/worksheets/sheet1.xml', data: b(`<worksheet xmlns="${NS_MAIN}"><sheetData/></worksheet>`) },
          { name: 'xl/drawings/drawing1.xml', data: drawing },
          { name: 'xl/drawings/_rels/drawing1.xml.rels', data: rels([['rId1', 'chart', '../charts/chart1.xml']]) },
          chart,
        ],
        [['rId1', 'drawing', '../drawings/drawing1.xml']],
      ),
    ),
  );
}

/** A deck listing the same slide `refs` times; the slide holds one text box of `chars` characters. */
export async function writeSlideRefsBomb(path: string, refs: number, chars: number): Promise<void> {
  const pres = await repeatedPart(
    'ppt/presentation.xml',
    `<p:presentation xmlns:p="${NS_P}" xmlns:r="${NS_R}"><p:sldIdLst>`,
    '<p:sldId id="256" r:id="rId2"/>',
    refs,
    '</p:sldIdLst></p:presentation>',
  );
  const slide = await repeatedPart(
    'ppt/slides/slide1.xml',
    `<p:sld xmlns:p="${NS_P}" xmlns:a="${NS_A}"><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>`,
    'B',
    chars,
    '</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>',
  );
  await writeFile(
    path,
    makeZip([
      { name: '[Content_Types].xml', data: contentTypes('pptx') },
      { name: '_rels/.rels', data: rels([['rId1', 'officeDocument', 'ppt/presentation.xml']]) },
      pres,
      { name: 'ppt/_rels/presentation.xml.rels', data: rels([['rId2', 'slide', 'slides/slide1.xml']]) },
      slide,
    ]),
  );
}

/** A document whose body references one header part `refs` times; the header holds `chars` characters. */
export async function writeHeaderRefsBomb(path: string, refs: number, chars: number): Promise<void> {
  const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  const docRels = await repeatedPart(
    'word/_rels/document.xml.rels',
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">',
    `<Relationship Id="rIdH" Type="${REL}/header" Target="header1.xml"/>`,
    refs,
    '</Relationships>',
  );
  const header = await repeatedPart(
    'word/header1.xml',
    `<w:hdr xmlns:w="${W}"><w:p><w:r><w:t>`,
    'H',
    chars,
    '</w:t></w:r></w:p></w:hdr>',
  );
  await writeFile(
    path,
    makeZip([
      { name: '[Content_Types].xml', data: contentTypes('docx') },
      { name: '_rels/.rels', data: rels([['rId1', 'officeDocument', 'word/document.xml']]) },
      {
        name: 'word/document.xml',
        data: b(`<w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>body</w:t></w:r></w:p></w:body></w:document>`),
      },
      docRels,
      header,
    ]),
  );
}

/** A document of `paragraphs` one-word paragraphs: a few hundred KB that parse into millions of XML nodes. */
export async function writeManyParagraphs(path: string, paragraphs: number): Promise<void> {
  const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  const doc = await repeatedPart(
    'word/document.xml',
    `<w:document xmlns:w="${W}"><w:body>`,
    '<w:p><w:r><w:t>word</w:t></w:r></w:p>',
    paragraphs,
    '</w:body></w:document>',
  );
  await writeFile(
    path,
    makeZip([
      { name: '[Content_Types].xml', data: contentTypes('docx') },
      { name: '_rels/.rels', data: rels([['rId1', 'officeDocument', 'word/document.xml']]) },
      doc,
    ]),
  );
}

/** A one-page PDF whose content stream inflates to `bytes` bytes of `fill` (spaces: valid, empty content). */
export async function writePdfFlateBomb(
  path: string,
  bytes: number,
  fill = ' ',
  opts: { emptyPassword?: boolean } = {},
): Promise<void> {
  const z = await deflateStreamed(repeatTo(Buffer.alloc(1 << 20, fill), bytes), { zlib: true, level: 9 });
  await writeFile(path, makePdf([{ deflated: z.compressed }], opts));
}

/** A PDF encrypted with an empty user password (readers open it without asking) showing `lines`. */
export async function writeEncryptedPdf(path: string, lines: string[]): Promise<void> {
  await writeFile(path, makePdf([{ content: textContent(lines) }], { emptyPassword: true }));
}

/**
 * A one-page PDF whose content stream shows `chars` characters of text (lines of 100), all at one
 * place on the page, or all below it (`offPage`: readers drop such text, after parsing it all).
 */
export async function writePdfTextBomb(path: string, chars: number, offPage = false): Promise<void> {
  // 50 rows down the page: readers also drop a line drawn over the one before (fake bold).
  const line = (i: number) =>
    `BT /F1 12 Tf 72 ${offPage ? -500 - i : 720 - (i % 50) * 14} Td (${'C'.repeat(100)}) Tj ET\n`;
  const block = Buffer.from(Array.from({ length: 1000 }, (_, i) => line(i)).join(''));
  const pieces = function* () {
    yield* repeatTo(block, Math.ceil(chars / 100 / 1000) * block.length);
  };
  const z = await deflateStreamed(pieces(), { zlib: true });
  await writeFile(path, makePdf([{ deflated: z.compressed }]));
}

/** A PDF of `pages` pages that all draw the same content stream of `lines` text lines. */
export async function writePdfRepeatedPages(path: string, pages: number, lines: number): Promise<void> {
  const content = textContent(Array.from({ length: lines }, (_, i) => `line ${i} of the shared page`));
  await writeFile(
    path,
    makePdf(Array.from({ length: pages }, (_, i) => (i === 0 ? { content } : { sameContentAs: 0 }))),
  );
}

/** A one-page PDF of `widthPt` x `heightPt` points (a 200-inch page rasterises to ~200 MP at 72 dpi). */
export async function writePdfHugePage(path: string, widthPt: number, heightPt: number): Promise<void> {
  await writeFile(path, makePdf([{ content: textContent(['a very large page']), mediaBox: [widthPt, heightPt] }]));
}

/** A hard link at `path` to `target` (a file outside the submission, say). */
export async function writeHardLink(path: string, target: string): Promise<void> {
  await link(target, path);
}

export function writeFifo(path: string): void {
  execFileSync('mkfifo', [path]);
}

/** A listening unix socket bound at `path`; the caller closes the returned server. */
export function writeSocket(path: string): Promise<{ close: () => void }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(path, () => resolve({ close: () => server.close() }));
  });
}
