// The cases of the hostile-input benchmark: the expansion bombs of issue #12 (shared strings, slide
// references, chart points, header references, XML node count, PDF flate and text bombs, repeated
// PDF pages), links and special files, every kind of the test suite's hostile files, and page
// rendering of oversized or overlong documents. Each case writes one submission folder at run time.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HOSTILE_CASES } from '../../packages/evidence/test/helpers/hostile-cases.js';
import {
  writeChartPointsBomb,
  writeFifo,
  writeHardLink,
  writeHeaderRefsBomb,
  writeManyParagraphs,
  writeOpenpyxlSharedStrings,
  writePdfFlateBomb,
  writePdfHugePage,
  writePdfRepeatedPages,
  writePdfTextBomb,
  writeSharedStringsBomb,
  writeSlideRefsBomb,
  writeSocket,
} from '../../packages/evidence/test/helpers/hostile-inputs.js';
import { xlsxWithSheet } from '../../packages/evidence/test/helpers/zip-writer.js';

const MiB = 1024 * 1024;

export interface BenchCase {
  name: string;
  /** `view`: buildSubmissionView over the folder; `render`: renderPageImages of its one file. */
  mode: 'view' | 'render';
  /** The entry written into the case folder. */
  file: string;
  make: (path: string, hostDir: string) => Promise<unknown>;
  /** Where the case comes from: the issue's findings, the test suite's kinds, or rendering. */
  group: 'issue' | 'suite' | 'render';
}

const rows = (n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<row r="${i + 1}"><c r="A${i + 1}"><v>${i}</v></c><c r="B${i + 1}" t="inlineStr"><is><t>row ${i}</t></is></c></row>`,
  ).join('');

type CaseSpec = Omit<BenchCase, 'mode' | 'group'>;

const ISSUE: BenchCase[] = (
  [
    {
      name: 'shared-strings-500k',
      file: 'book.xlsx',
      make: (p) => writeSharedStringsBomb(p, 500_000, 10_000),
    },
    { name: 'shared-strings-long', file: 'book.xlsx', make: (p) => writeSharedStringsBomb(p, 60_000, 60_000) },
    {
      name: 'openpyxl-shared-strings',
      file: 'book.xlsx',
      make: async (p) => writeOpenpyxlSharedStrings(p, 5_000, 20_000),
    },
    { name: 'slide-refs', file: 'deck.pptx', make: (p) => writeSlideRefsBomb(p, 5_000, 200_000) },
    { name: 'slide-refs-empty', file: 'deck.pptx', make: (p) => writeSlideRefsBomb(p, 1_000_000, 1) },
    { name: 'chart-points', file: 'chart.xlsx', make: (p) => writeChartPointsBomb(p, 2_000, 100_000) },
    { name: 'header-refs', file: 'memo.docx', make: (p) => writeHeaderRefsBomb(p, 5_000, 200_000) },
    { name: 'many-paragraphs', file: 'memo.docx', make: (p) => writeManyParagraphs(p, 2_000_000) },
    { name: 'pdf-flate-bomb', file: 'report.pdf', make: (p) => writePdfFlateBomb(p, 1024 * MiB) },
    {
      name: 'pdf-encrypted-flate-bomb',
      file: 'report.pdf',
      make: (p) => writePdfFlateBomb(p, 1024 * MiB, ' ', { emptyPassword: true }),
    },
    { name: 'pdf-text-bomb', file: 'report.pdf', make: (p) => writePdfTextBomb(p, 100_000_000) },
    { name: 'pdf-offpage-text-bomb', file: 'report.pdf', make: (p) => writePdfTextBomb(p, 100_000_000, true) },
    { name: 'pdf-repeated-pages', file: 'report.pdf', make: (p) => writePdfRepeatedPages(p, 2_000, 2_000) },
    { name: 'big-workbook-600k-rows', file: 'big.xlsx', make: (p) => writeFile(p, xlsxWithSheet(rows(600_000))) },
    {
      name: 'hard-link',
      file: 'notes.txt',
      make: async (p, host) => {
        const secret = join(host, 'host-secret.txt');
        await writeFile(secret, 'password=hunter2\n');
        await writeHardLink(p, secret);
      },
    },
    { name: 'fifo', file: 'pipe.csv', make: async (p) => writeFifo(p) },
    // The socket is left bound: the server closes with the bench process.
    { name: 'socket', file: 'agent.sock', make: (p) => writeSocket(p) },
  ] satisfies CaseSpec[]
).map((c) => ({ ...c, mode: 'view' as const, group: 'issue' as const }));

const SUITE: BenchCase[] = HOSTILE_CASES.map((c) => ({
  name: c.name,
  file: c.name,
  mode: 'view' as const,
  group: 'suite' as const,
  make: c.make,
}));

const RENDER: BenchCase[] = (
  [
    { name: 'render-huge-page', file: 'poster.pdf', make: (p) => writePdfHugePage(p, 14_400, 14_400) },
    { name: 'render-5000-pages', file: 'long.pdf', make: (p) => writePdfRepeatedPages(p, 5_000, 40) },
    { name: 'render-pdf-flate-bomb', file: 'report.pdf', make: (p) => writePdfFlateBomb(p, 1024 * MiB) },
    {
      name: 'render-pdf-encrypted-flate-bomb',
      file: 'report.pdf',
      make: (p) => writePdfFlateBomb(p, 1024 * MiB, ' ', { emptyPassword: true }),
    },
    { name: 'render-slide-refs', file: 'deck.pptx', make: (p) => writeSlideRefsBomb(p, 2_000, 2_000) },
    { name: 'render-shared-strings', file: 'book.xlsx', make: (p) => writeSharedStringsBomb(p, 500_000, 10_000) },
  ] satisfies CaseSpec[]
).map((c) => ({ ...c, mode: 'render' as const, group: 'render' as const }));

export const BENCH_CASES: BenchCase[] = [...ISSUE, ...SUITE, ...RENDER];

/** Writes the case's folder under `root` and returns it. */
export async function makeCase(c: BenchCase, root: string, hostDir: string): Promise<string> {
  const dir = join(root, c.name);
  await mkdir(dir, { recursive: true });
  await c.make(join(dir, c.file), hostDir);
  return dir;
}
