// Page images through LibreOffice headless and pdftoppm (a few files only: this is the slow part).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSubmissionView, renderPageImages } from '../src/index.js';
import { trimDeck } from '../src/render/trim-deck.js';
import { readZip } from '../src/zip/read-zip.js';
import { contentTypes, makeZip, ROOT_RELS_DOCX } from './helpers/zip-writer.js';
import { writePdfFlateBomb, writePdfHugePage, writeSlideRefsBomb } from './helpers/hostile-inputs.js';

const FIX = join(import.meta.dirname, 'fixtures');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
// Conversions that test what LibreOffice produces get a minute: the default 9 s budget is met by
// these files on an idle machine, not on one shared by several test suites (the budget has its own test).
const SLOW = { maxRenderMs: 60_000 };
let out: string;

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'assay-render-'));
});
afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

async function isPng(path: string): Promise<boolean> {
  const b = await readFile(path);
  return b.subarray(0, 4).equals(PNG) && (await stat(path)).size > 1000;
}

describe('renderPageImages', () => {
  it('renders a docx to one PNG per page via LibreOffice, with its own profile', async () => {
    const r = await renderPageImages(join(FIX, 'report.docx'), join(out, 'docx'), {
      ...SLOW,
      profileDir: join(out, 'profile'),
    });
    expect(r.notes).toEqual([]);
    expect(r.pageCount).toBe(2);
    expect(r.pages.map((p) => p.split('/').pop())).toEqual(['page-1.png', 'page-2.png']);
    for (const p of r.pages) expect(await isPng(p)).toBe(true);
    const capped = await renderPageImages(join(FIX, 'report.docx'), join(out, 'docx1'), {
      ...SLOW,
      profileDir: join(out, 'profile'),
      maxPages: 1,
    });
    expect(capped.pageCount).toBe(1);
    expect(capped.notes).toEqual(['rendered the first 1 pages only (later pages, if any, have no image)']);
    expect((await readFile(r.pdf!)).subarray(0, 5).toString()).toBe('%PDF-');
    expect((await stat(join(out, 'profile'))).isDirectory()).toBe(true);
  }, 120_000);

  it('renders a pdf directly and caps the page count', async () => {
    const r = await renderPageImages(join(FIX, 'report.pdf'), join(out, 'pdf'), { maxPages: 1, dpi: 30 });
    expect(r.pages).toHaveLength(1);
    expect(r.notes).toEqual(['rendered the first 1 pages only (later pages, if any, have no image)']);
  });

  it('says clearly when LibreOffice is missing, or the format has no pages', async () => {
    const r = await renderPageImages(join(FIX, 'deck.pptx'), join(out, 'missing'), { soffice: '/nonexistent/soffice' });
    expect(r).toMatchObject({ pages: [], pdf: null });
    expect(r.notes[0]).toMatch(/LibreOffice \(soffice\) is not installed/);
    const csv = await renderPageImages(join(FIX, 'data.csv'), join(out, 'csv'));
    expect(csv.notes).toEqual(['page images are rendered for docx, xlsx, pptx and pdf only (this file: csv)']);
  });

  it('reports a file LibreOffice cannot convert instead of failing', async () => {
    const empty = join(out, 'no-document.docx');
    await writeFile(
      empty,
      makeZip([
        { name: '[Content_Types].xml', data: contentTypes('docx') },
        { name: '_rels/.rels', data: ROOT_RELS_DOCX },
      ]),
    );
    const r = await renderPageImages(empty, join(out, 'nodoc'), { ...SLOW, profileDir: join(out, 'profile') });
    expect(r).toMatchObject({ pages: [], pdf: null, notes: ['LibreOffice reported success but produced no PDF'] });
  }, 120_000);

  it('never hands LibreOffice a symlink, an encrypted package or a zip bomb', async () => {
    const link = join(out, 'link.docx');
    await symlink(join(FIX, 'report.docx'), link);
    expect((await renderPageImages(link, join(out, 'link'))).notes).toEqual([
      'not a regular file (symbolic link): skipped without reading',
    ]);
    const enc = await renderPageImages(join(FIX, 'encrypted.docx'), join(out, 'enc'), { format: 'docx' });
    expect(enc.notes[0]).toMatch(/^unreadable zip container/);
    const bomb = join(out, 'bomb.docx');
    await writeFile(
      bomb,
      makeZip([
        { name: '[Content_Types].xml', data: contentTypes('docx') },
        { name: 'word/document.xml', data: Buffer.alloc(4 * 1024 * 1024) },
      ]),
    );
    const b = await renderPageImages(bomb, join(out, 'bomb'), { limits: { maxZipEntryBytes: 1024 * 1024 } });
    expect(b.notes[0]).toMatch(/decompresses to more than 1\.0 MiB: not read \(possible zip bomb\)/);
  });

  it('attaches page images to the submission view when asked', async () => {
    const sub = await mkdtemp(join(tmpdir(), 'assay-render-sub-'));
    try {
      await copyFile(join(FIX, 'report.pdf'), join(sub, 'report.pdf'));
      await copyFile(join(FIX, 'data.csv'), join(sub, 'data.csv'));
      const view = await buildSubmissionView(sub, { render: { outDir: join(out, 'view'), dpi: 30, ...SLOW } });
      const pdf = view.files.find((f) => f.path === 'report.pdf')!;
      expect(pdf.pageImages).toHaveLength(2);
      expect(view.files.find((f) => f.path === 'data.csv')!.pageImages).toBeUndefined();
    } finally {
      await rm(sub, { recursive: true, force: true });
    }
  });
});

/** Width and height from a PNG's IHDR chunk. */
async function pngSize(path: string): Promise<[number, number]> {
  const b = await readFile(path);
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

describe('rendering under a budget', () => {
  it('renders a page over the pixel budget at a lower resolution, with a note', async () => {
    const poster = join(out, 'poster.pdf');
    await writePdfHugePage(poster, 14_400, 14_400); // 200 x 200 inches: 207 MP at 72 dpi
    const r = await renderPageImages(poster, join(out, 'poster'));
    expect(r.notes).toEqual([
      'page 1 would be 207,360,000 pixels, over the page budget of 25,000,000: rendered at 25 dpi instead',
    ]);
    const [w, h] = await pngSize(r.pages[0]!);
    expect(w * h).toBeLessThanOrEqual(25_000_000);
    expect(w).toBe(5000);
  });

  it('stops at the total pixel budget, and says after how many pages', async () => {
    const r = await renderPageImages(join(FIX, 'report.pdf'), join(out, 'pixels'), {
      dpi: 30,
      maxTotalPixels: 100_000,
    });
    expect(r.pages).toHaveLength(1);
    expect(r.notes[0]).toBe(
      'page images truncated at the pixel budget (100,000 pixels per file): rendered the first 1 pages',
    );
  });

  it("caps each tool's memory: pdftoppm out of memory under its cap is a note, not a hang or a crash", async () => {
    const poster = join(out, 'poster-oom.pdf');
    await writePdfHugePage(poster, 14_400, 14_400);
    const r = await renderPageImages(poster, join(out, 'oom'), {
      maxPagePixels: 1e9,
      maxTotalPixels: 1e9,
      memoryMb: 40,
    });
    expect(r.pages).toEqual([]);
    expect(r.notes).toContain('pdftoppm ran out of memory under its cap of 40 MiB: page images not rendered');
  });

  it('keeps to its time budget and refuses a PDF flate bomb before poppler decodes it', async () => {
    const slow = await renderPageImages(join(FIX, 'report.docx'), join(out, 'slow'), {
      profileDir: join(out, 'profile'),
      maxRenderMs: 300,
    });
    expect(slow.notes).toEqual([
      'the time budget for page images (300 ms per file) ran out during LibreOffice: stopped',
    ]);
    const bomb = join(out, 'bomb.pdf');
    await writePdfFlateBomb(bomb, 200 * 1024 * 1024);
    const r = await renderPageImages(bomb, join(out, 'bomb-pdf'));
    expect(r.notes).toEqual([
      'PDF streams decode to more than 128 MiB (images aside): page images not rendered (possible flate bomb)',
    ]);
  }, 60_000);

  it('converts only the slides that get an image: the deck LibreOffice sees is cut to the page budget', async () => {
    const r = await renderPageImages(join(FIX, 'deck.pptx'), join(out, 'deck2'), {
      ...SLOW,
      profileDir: join(out, 'profile'),
      maxPages: 2,
    });
    expect(r.pages).toHaveLength(2);
    expect(await isPng(r.pages[1]!)).toBe(true);
    expect(r.pageCount).toBe(2);
    expect(r.notes[0]).toBe('the deck lists 5 slides: only the first 2 were converted to page images (page budget)');
  }, 90_000);

  it('cuts a deck of 2,000 slide entries to the budget, every other part copied byte for byte', async () => {
    const bomb = join(out, 'slide-refs.pptx');
    await writeSlideRefsBomb(bomb, 2_000, 2_000);
    const data = await readFile(bomb);
    const caps = { maxZipEntries: 100, maxZipEntryBytes: 1 << 24, maxZipTotalBytes: 1 << 24 };
    const before = (await readZip(data, caps)).files;
    const cut = await trimDeck(data, before.get('ppt/presentation.xml')!.toString('utf8'), 3);
    expect(cut && { kept: cut.kept, slides: cut.slides }).toEqual({ kept: 3, slides: 2_000 });
    const after = (await readZip(cut!.data, caps)).files;
    expect([...after.keys()]).toEqual([...before.keys()]);
    const pres = after.get('ppt/presentation.xml')!.toString('utf8');
    expect(pres.match(/<p:sldId /g)).toHaveLength(3);
    expect(pres).toMatch(/^<p:presentation [^>]*><p:sldIdLst>(<p:sldId id="256" r:id="rId2"\/>){3}<\/p:sldIdLst>/);
    for (const [name, bytes] of before) if (name !== 'ppt/presentation.xml') expect(after.get(name)).toEqual(bytes);
    expect(await trimDeck(data, before.get('ppt/presentation.xml')!.toString('utf8'), 2_000)).toBeNull();
  });
});
