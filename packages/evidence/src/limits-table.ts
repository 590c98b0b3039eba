// The evidence limits as docs/writing-a-benchmark.md documents them: generated from DEFAULT_LIMITS,
// LIMIT_MAXIMA and RENDER_DEFAULTS, and held to the doc by test/documented-limits.test.ts, so the
// documented numbers cannot drift from the code. Every limit must have a row (the Record says so).
import { DEFAULT_LIMITS, LIMIT_MAXIMA, type EvidenceLimits } from './limits.js';
import { RENDER_DEFAULTS } from './render-page-images.js';

type Unit = 'bytes' | 'ms' | 'MiB' | 'count';

const ROWS: Record<keyof EvidenceLimits, [Unit, string]> = {
  maxFileBytes: ['bytes', 'a file larger than this is listed but not parsed'],
  maxHashBytes: ['bytes', 'a file larger than this is not hashed either'],
  maxZipEntries: ['count', 'entries of one zip (docx, xlsx, pptx)'],
  maxZipEntryBytes: ['bytes', 'decompressed size of one zip entry, declared and actual'],
  maxZipTotalBytes: ['bytes', 'decompressed size of all entries of one zip'],
  maxXmlDepth: ['count', 'nesting depth of an XML part'],
  maxXmlNodes: ['count', 'elements and text nodes of all XML parts of one file'],
  maxPdfStreamBytes: ['bytes', "decoded size of a PDF's streams other than images (an encrypted PDF is not read)"],
  maxCells: ['count', 'spreadsheet cells kept per workbook (csv: fields); the rest are counted'],
  maxPages: ['count', 'PDF pages whose text is extracted'],
  maxSlides: ['count', 'slides kept per deck'],
  maxImages: ['count', 'pictures listed per deck'],
  maxChartPoints: ['count', 'cached chart points kept per file'],
  maxTextChars: ['count', 'characters of text kept per file'],
  maxEvidenceBytes: ['bytes', "serialized size of one file's evidence"],
  maxViewBytes: ['bytes', 'serialized evidence of all files of a submission together'],
  maxExtractMs: ['ms', 'extraction time after which nothing more is kept'],
  perFileTimeoutMs: ['ms', 'wall time of the parser process for one file (then it is killed)'],
  childMemoryMb: ['MiB', "the parser process's heap"],
  childAddressSpaceMb: ['MiB', 'address space the parser process may add after start-up'],
  maxFiles: ['count', 'entries listed per submission'],
  maxDepth: ['count', 'folder depth walked per submission'],
};

const n = (x: number) => x.toLocaleString('en-US');

function show(value: number, unit: Unit): string {
  if (unit === 'count') return n(value);
  if (unit === 'MiB') return `${n(value)} MiB`;
  if (unit === 'ms') return value % 1000 === 0 ? `${n(value / 1000)} s` : `${n(value)} ms`;
  const MiB = 1024 * 1024;
  return value % (1024 * MiB) === 0 ? `${n(value / 1024 / MiB)} GiB` : `${n(value / MiB)} MiB`;
}

/** The Markdown tables of the evidence limits and the page-image budgets. */
export function renderLimitsTable(): string {
  const lines = ['| limit | what it bounds | default | maximum |', '| --- | --- | --- | --- |'];
  for (const key of Object.keys(ROWS) as Array<keyof EvidenceLimits>) {
    const [unit, what] = ROWS[key];
    lines.push(`| \`${key}\` | ${what} | ${show(DEFAULT_LIMITS[key], unit)} | ${show(LIMIT_MAXIMA[key], unit)} |`);
  }
  const r = RENDER_DEFAULTS;
  lines.push(
    '',
    '| page images | default |',
    '| --- | --- |',
    `| pages rendered per file | ${n(r.maxPages)} (a deck is cut to them before conversion) |`,
    `| resolution | ${n(r.dpi)} dpi |`,
    `| pixels of one page | ${n(r.maxPagePixels)} (a larger page is rendered at a lower resolution) |`,
    `| pixels of all pages of a file | ${n(r.maxTotalPixels)} |`,
    `| time for one file (conversion and rasterising) | ${show(r.maxRenderMs, 'ms')} |`,
    `| address space of each tool (LibreOffice, pdftoppm) | ${n(r.memoryMb)} MiB |`,
  );
  return lines.join('\n');
}
