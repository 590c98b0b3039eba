// Evidence bounded by construction: files a few KB on disk that expand to gigabytes when read
// (shared strings, slide references, chart points, PDF flate/LZW/RunLength bombs), links and
// special files. Each must end in a note naming the budget, kept in the view and shown to the
// judge, with the caller's memory bounded — never a crash, never a silent cut.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import {
  buildSubmissionView,
  extractBuffer,
  extractFile,
  IsolatedExtractor,
  renderFileText,
  renderSubmissionText,
} from '../src/index.js';
import type { FileView, SubmissionView } from '../src/index.js';
import {
  SYSTEM_PYTHON,
  writeChartPointsBomb,
  writeEncryptedPdf,
  writeFifo,
  writeHardLink,
  writeOpenpyxlSharedStrings,
  writePdfFlateBomb,
  writePdfTextBomb,
  writeSharedStringsBomb,
  writeSlideRefsBomb,
  writeSocket,
} from './helpers/hostile-inputs.js';
import { lzwEncode, makePdf, textContent } from './helpers/pdf-writer.js';
import { pdfEncrypted } from '../src/extract/pdf-encryption.js';

const MiB = 1024 * 1024;
let root: string;
let host: string;
let view: SubmissionView;
let rssGrowthMb: number;
let buildMs: number;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'assay-budgets-'));
  host = await mkdtemp(join(tmpdir(), 'assay-budgets-host-'));
  await writeSharedStringsBomb(join(root, 'shared-strings.xlsx'), 200_000, 10_000);
  writeOpenpyxlSharedStrings(join(root, 'openpyxl.xlsx'), 1_000, 20_000);
  await writeSlideRefsBomb(join(root, 'slide-refs.pptx'), 5_000, 200_000);
  await writeChartPointsBomb(join(root, 'chart-points.xlsx'), 1_000, 100_000);
  await writePdfFlateBomb(join(root, 'flate-bomb.pdf'), 300 * MiB);
  await writeFile(join(host, 'secret.txt'), 'password=hunter2\n');
  await writeHardLink(join(root, 'linked.txt'), join(host, 'secret.txt'));
  writeFifo(join(root, 'pipe.csv'));
  const socket = await writeSocket(join(root, 'agent.sock'));
  execFileSync('mknod', [join(root, 'null.dev'), 'c', '1', '3']);
  try {
    const before = process.memoryUsage().rss;
    const t = Date.now();
    view = await buildSubmissionView(root);
    buildMs = Date.now() - t;
    rssGrowthMb = (process.memoryUsage().rss - before) / MiB;
  } finally {
    socket.close();
  }
}, 120_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(host, { recursive: true, force: true });
});

function file(path: string): FileView {
  const f = view.files.find((x) => x.path === path);
  if (!f) throw new Error(`${path} missing from the view`);
  return f;
}

describe('expansion bombs end in a note naming the budget', () => {
  it('a shared-strings workbook (KBs on disk, 2 G characters of cells) is cut at the text budget', () => {
    const f = file('shared-strings.xlsx');
    expect(f.notes[0]).toBe(
      'evidence truncated at the text budget (10,000,000 characters per file): kept 499 of 200,000 cells',
    );
    expect(f.evidence?.format).toBe('xlsx');
    expect(renderFileText(f)).toContain(`note: ${f.notes[0]}`);
  });

  it('the same from a real producer (openpyxl), and the judge sees it in the submission text', () => {
    expect(file('openpyxl.xlsx').notes[0]).toBe(
      'evidence truncated at the text budget (10,000,000 characters per file): kept 249 of 1,000 cells',
    );
    expect(renderSubmissionText(view)).toContain('kept 249 of 1,000 cells');
  });

  it('a deck listing one slide 5,000 times keeps the slides the budget holds, and says so', () => {
    const f = file('slide-refs.pptx');
    expect(f.notes[0]).toBe(
      'evidence truncated at the text budget (10,000,000 characters per file): kept 49 of 5,000 slides',
    );
    expect(f.notes[1]).toMatch(
      /^49 slide entries reuse a slide part already listed \(such as ppt\/slides\/slide1\.xml\)/,
    );
    expect(f.evidence?.format === 'pptx' && f.evidence.slides.length).toBe(49);
  });

  it('a chart whose series declare 100,000 points each stops at the chart-point budget', () => {
    expect(file('chart-points.xlsx').notes[0]).toBe(
      'evidence truncated at the chart-point budget (1,000,000 chart points per file): kept 1,000,000 of 100,000,000 chart points',
    );
  });

  it('a PDF flate bomb is refused before pdfjs inflates it (poppler reads the same file as a valid PDF)', () => {
    expect(execFileSync('pdfinfo', [join(root, 'flate-bomb.pdf')], { encoding: 'utf8' })).toMatch(/^Pages:\s+1$/m);
    expect(file('flate-bomb.pdf')).toMatchObject({
      format: 'pdf',
      evidence: null,
      notes: ['PDF streams decode to more than 128 MiB (images aside): text not extracted (possible flate bomb)'],
    });
  });

  it('all of it within the budgets: the caller grew by less than the view budget, in seconds', () => {
    const bytes = Buffer.byteLength(JSON.stringify(view));
    expect(bytes).toBeLessThan(96 * MiB);
    expect(rssGrowthMb).toBeLessThan(250);
    expect(buildMs).toBeLessThan(60_000);
  });
});

describe('links and special files are refused, never read', () => {
  it('a hard link to a host file: listed with a note, its contents nowhere in the view', () => {
    expect(file('linked.txt')).toMatchObject({
      entry: 'other',
      type: 'hard link',
      sha256: null,
      evidence: null,
      notes: ['hard link (this file has 2 names, and may be a file from outside the submission): refused, not read'],
    });
    expect(renderSubmissionText(view)).not.toContain('hunter2');
  });

  it('the open file is checked too: extractFile and renderPageImages refuse a hard link by itself', async () => {
    const r = await extractFile(join(root, 'linked.txt'), 'linked.txt');
    expect(r).toMatchObject({ evidence: null, detection: { type: 'hard link' } });
    const { renderPageImages } = await import('../src/index.js');
    expect((await renderPageImages(join(root, 'linked.txt'), join(host, 'pages'))).notes[0]).toMatch(/^hard link/);
  });

  it('a FIFO, a socket and a device are skipped without being opened', () => {
    expect(file('pipe.csv')).toMatchObject({ type: 'named pipe', evidence: null });
    expect(file('agent.sock')).toMatchObject({ type: 'socket', evidence: null });
    expect(file('null.dev')).toMatchObject({ type: 'character device', evidence: null });
    for (const p of ['pipe.csv', 'agent.sock', 'null.dev'])
      expect(file(p).notes[0]).toMatch(/^not a regular file \((named pipe|socket|character device)\): skipped/);
  });
});

describe('encrypted PDFs', () => {
  it('an empty-password PDF is opened by readers without asking, so it is refused before any reader sees it', async () => {
    const pdf = join(host, 'locked.pdf');
    await writeEncryptedPdf(pdf, ['Quarterly revenue rose 12 percent']);
    // The encryption is real: poppler and pdfjs decrypt it (and would then inflate every stream).
    expect(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' })).toMatch(/^Encrypted:\s+yes/m);
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const doc = await getDocument({ data: new Uint8Array(await readFile(pdf)), verbosity: 0 }).promise;
    const items = (await (await doc.getPage(1)).getTextContent()).items as Array<{ str?: string }>;
    expect(items.map((i) => i.str).join('')).toContain('Quarterly revenue rose 12 percent');
    await doc.destroy();
    const note =
      'encrypted PDF (an /Encrypt dictionary, even with an empty password): its streams cannot be measured before they are decrypted, so its text is not read';
    expect(await extractFile(pdf, 'locked.pdf')).toMatchObject({ evidence: null, notes: [note] });
    // A name may spell its characters as #xx: the same dictionary under /Encr#79pt.
    const escaped = Buffer.from((await readFile(pdf)).toString('latin1').replace('/Encrypt ', '/Encr#79pt '), 'latin1');
    expect((await extractBuffer(escaped, 'escaped.pdf')).notes).toEqual([note]);
    // A password-protected one says the same; /EncryptMetadata alone is not /Encrypt.
    expect((await extractFile(join(import.meta.dirname, 'fixtures/encrypted.pdf'), 'encrypted.pdf')).notes).toEqual([
      note,
    ]);
    expect(pdfEncrypted(Buffer.from('%PDF-1.7\n<< /EncryptMetadata false >>'))).toBe(false);
  });

  it('an encrypted flate bomb (its ciphertext cannot be measured) is refused at once, for text and page images', async () => {
    const bomb = join(host, 'bomb.pdf');
    await writePdfFlateBomb(bomb, 300 * MiB, ' ', { emptyPassword: true });
    const t = Date.now();
    expect((await extractFile(bomb, 'bomb.pdf')).notes[0]).toMatch(/^encrypted PDF \(an \/Encrypt dictionary/);
    const { renderPageImages } = await import('../src/index.js');
    const r = await renderPageImages(bomb, join(host, 'bomb-pages'));
    expect(r).toMatchObject({ pages: [], notes: [expect.stringMatching(/so page images are not rendered$/)] });
    expect(Date.now() - t).toBeLessThan(5_000);
  });
});

describe('other PDF filters are measured too', () => {
  it('an LZW bomb is refused, while LZW text decodes (pdfjs reads the same encoder)', async () => {
    const text = textContent(Array.from({ length: 200 }, (_, i) => `row ${i} of an LZW page`));
    const ok = await extractBuffer(
      makePdf([{ encoded: { data: lzwEncode(Buffer.from(text)), filters: ['LZWDecode'] } }]),
      'a.pdf',
    );
    expect(ok.evidence?.format === 'pdf' && ok.evidence.pages[0]?.text).toContain('row 199 of an LZW page');
    const bomb = makePdf([{ encoded: { data: lzwEncode(Buffer.alloc(40 * MiB, 32)), filters: ['LZWDecode'] } }]);
    expect(bomb.length).toBeLessThan(1 * MiB);
    const r = await extractBuffer(bomb, 'bomb.pdf', { maxPdfStreamBytes: 16 * MiB });
    expect(r.notes).toEqual([
      'PDF streams decode to more than 16 MiB (images aside): text not extracted (possible flate bomb)',
    ]);
  }, 30_000);

  it('RunLength and an ASCII85 + Flate chain (ASCII85 from Python) are measured through the chain', async () => {
    const rl = Buffer.alloc(2 * 300_000);
    for (let i = 0; i < rl.length; i += 2) [rl[i], rl[i + 1]] = [129, 32]; // 128 spaces per 2 bytes
    const rle = await extractBuffer(makePdf([{ encoded: { data: rl, filters: ['RunLengthDecode'] } }]), 'rl.pdf', {
      maxPdfStreamBytes: 32 * MiB,
    });
    expect(rle.notes[0]).toMatch(/^PDF streams decode to more than 32 MiB/);
    const flate = deflateSync(Buffer.alloc(5 * MiB, 32));
    const a85 = execFileSync(
      SYSTEM_PYTHON,
      ['-c', 'import sys,base64; sys.stdout.buffer.write(base64.a85encode(sys.stdin.buffer.read(), adobe=True)[2:])'],
      {
        input: flate,
      },
    );
    const chain = makePdf([{ encoded: { data: a85, filters: ['ASCII85Decode', 'FlateDecode'] } }]);
    expect((await extractBuffer(chain, 'chain.pdf', { maxPdfStreamBytes: 4 * MiB })).notes[0]).toMatch(
      /^PDF streams decode to more than 4\.0 MiB/,
    );
    expect((await extractBuffer(chain, 'chain.pdf', { maxPdfStreamBytes: 6 * MiB })).evidence?.format).toBe('pdf');
  }, 30_000);
});

describe('the time budget stops pdfjs mid-page', () => {
  it('a page of 20 M characters drawn off the page ends at the time budget, and Date.now is given back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-budgets-time-'));
    const now = Date.now;
    try {
      await writePdfTextBomb(join(dir, 'slow.pdf'), 20_000_000, true);
      const t = performance.now();
      const r = await extractFile(join(dir, 'slow.pdf'), 'slow.pdf', { maxExtractMs: 500 });
      expect(performance.now() - t).toBeLessThan(5_000);
      expect(r.notes).toEqual([
        'evidence truncated at the time budget (500 ms of extraction per file): kept 0 of 1 pages',
      ]);
      expect(Date.now).toBe(now);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('the reply and the caller stay within the size budget', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'assay-budgets-reply-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a reply of many chunks arrives whole: the isolated result equals the in-process one', async () => {
    const csv = join(dir, 'wide.csv');
    await writeFile(
      csv,
      Array.from({ length: 60_000 }, (_, i) => `${i},name ${i},${i * 3.5},"quoted, ${i}"`).join('\n'),
    );
    const ex = new IsolatedExtractor();
    try {
      const isolated = await ex.extractMeasured(csv, 'wide.csv');
      expect(isolated.bytes).toBeGreaterThan(2 * MiB); // more than one 1 Mi-character chunk
      expect(isolated.result).toEqual(await extractFile(csv, 'wide.csv'));
    } finally {
      ex.close();
    }
  });

  it('JSON that outgrows the estimate (control characters escape to 6 bytes) is cut again to fit', async () => {
    const txt = join(dir, 'controls.txt');
    await writeFile(txt, '\u0001'.repeat(3 * MiB));
    const ex = new IsolatedExtractor({ maxEvidenceBytes: 2 * MiB });
    try {
      const { result, bytes } = await ex.extractMeasured(txt, 'controls.txt');
      expect(bytes).toBeLessThanOrEqual(2 * MiB);
      expect(result.notes[0]).toMatch(
        /^evidence truncated at the (text|size) budget .*: kept [\d,]+ of 3,145,728 characters$/,
      );
    } finally {
      ex.close();
    }
  });

  it('files share the submission budget: a later file gets what is left, then nothing', async () => {
    for (const n of ['a', 'b', 'c']) await writeFile(join(dir, `${n}.txt`), `${n} words `.repeat(100_000));
    const v = await buildSubmissionView(dir, { limits: { maxViewBytes: 1.5 * MiB, maxEvidenceBytes: 1 * MiB } });
    const notes = (p: string) => v.files.find((f) => f.path === p)!.notes;
    expect(notes('a.txt')).toEqual([]);
    expect(notes('b.txt')[0]).toMatch(
      /^evidence truncated at the submission's size budget \([\d.]+ KiB of serialized evidence left for this file\)/,
    );
    expect(notes('c.txt')).toEqual([
      "the submission's evidence size budget (1.5 MiB for all files) is spent: this file was not parsed",
    ]);
    expect(Buffer.byteLength(JSON.stringify(v.files.map((f) => f.evidence)))).toBeLessThan(1.5 * MiB);
  });
});

describe('the parser process has a real memory cap', () => {
  it('its address space is capped after start-up (prlimit), and dying at the cap is a note', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-budgets-cap-'));
    const ex = new IsolatedExtractor({ childAddressSpaceMb: 48 });
    try {
      expect((await ex.stats())?.addressSpaceCapMb).toBe(48);
      await writeFile(join(dir, 'big.txt'), 'é'.repeat(20 * MiB));
      const r = await ex.extract(join(dir, 'big.txt'), 'big.txt');
      expect(r.evidence).toBeNull();
      expect(r.notes[0]).toMatch(
        /^parser process died while reading this file \(SIG[A-Z]+ under its memory cap of 48 MiB beyond start-up: the cap was most likely reached\)|needs more memory than the parser's cap of 48 MiB allows/,
      );
      const next = await ex.extract(join(import.meta.dirname, 'fixtures', 'data.csv'), 'data.csv');
      expect(next.evidence?.format).toBe('csv');
    } finally {
      ex.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
