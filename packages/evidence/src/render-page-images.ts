// Page images: docx/xlsx/pptx -> PDF with LibreOffice headless, PDF -> PNG pages with pdftoppm,
// under a budget: pages, pixels per page (a larger page is rendered at a lower resolution), pixels
// in total, overall time, and an address-space cap on each tool (prlimit). LibreOffice lays out a
// whole document whatever page range it exports, so a deck is cut to the budgeted slides first.
// Each worker uses its own LibreOffice profile (-env:UserInstallation): two soffice processes
// sharing a profile fail or hang.
// Every output is checked to exist; every exceeded budget is a note.
import { constants } from 'node:fs';
import { copyFile, lstat, mkdir, mkdtemp, open, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';
import type { Format } from '@assay/core';
import { detectFile } from './detect-format.js';
import { readZip, ZipRefused } from './zip/read-zip.js';
import { pdfEncrypted } from './extract/pdf-encryption.js';
import { pdfStreamsWithin } from './extract/scan-pdf-streams.js';
import { resolveLimits } from './limits.js';
import type { EvidenceLimits } from './limits.js';
import { msg } from './messages.js';
import { runTool, type ToolResult } from './render/run-tool.js';
import { parsePageSizes, planPages } from './render/plan-pages.js';
import { trimDeck } from './render/trim-deck.js';

export interface RenderOptions {
  /** Resolution of the PNGs (default 72 dpi). */
  dpi?: number;
  /** Pages rendered at most (default 20). */
  maxPages?: number;
  /** Time limit for each tool run (default 120 s), within maxRenderMs. */
  timeoutMs?: number;
  /**
   * Time for the whole rendering of one file (default 9 s: conversion, page sizes and rasterising
   * together). The tool running when it ends is killed with its process group; the budget is a note.
   */
  maxRenderMs?: number;
  /** Pixels of one page image (default 25,000,000); a larger page is rendered at a lower dpi. */
  maxPagePixels?: number;
  /** Pixels of all page images of the file (default 100,000,000); later pages are not rendered. */
  maxTotalPixels?: number;
  /** Address space of each tool process, MiB (default 2048; RLIMIT_AS through prlimit). */
  memoryMb?: number;
  /** LibreOffice profile folder; default: one per process and thread under the temp folder. */
  profileDir?: string;
  /** Skip detection when the caller already knows the format. */
  format?: Format | null;
  soffice?: string;
  pdftoppm?: string;
  /** Caps checked before LibreOffice sees the file (size, zip entries and decompressed size, PDF streams). */
  limits?: Partial<EvidenceLimits>;
}

export interface RenderResult {
  /** PNG paths in page order. */
  pages: string[];
  /** The PDF the pages were rendered from (a copy in outDir), or null. */
  pdf: string | null;
  pageCount: number | null;
  notes: string[];
}

/** The budgets of one rendering, every option resolved. */
interface RenderBudget {
  dpi: number;
  maxPages: number;
  timeoutMs: number;
  maxPagePixels: number;
  maxTotalPixels: number;
  memoryMb: number;
  maxRenderMs: number;
  deadline: number;
  limits: EvidenceLimits;
}

export const RENDER_DEFAULTS = {
  dpi: 72,
  maxPages: 20,
  timeoutMs: 120_000,
  maxRenderMs: 9_000,
  maxPagePixels: 25_000_000,
  maxTotalPixels: 100_000_000,
  memoryMb: 2_048,
} as const;

const PDF_FILTER = { docx: 'writer_pdf_Export', xlsx: 'calc_pdf_Export', pptx: 'impress_pdf_Export' } as const;

const profileLocks = new Map<string, Promise<unknown>>();

/** Serialises LibreOffice runs that share a profile. */
function withProfile<T>(profile: string, fn: () => Promise<T>): Promise<T> {
  const prev = profileLocks.get(profile) ?? Promise.resolve();
  const next = prev.then(fn, fn);
  profileLocks.set(
    profile,
    next.catch(() => undefined),
  );
  return next;
}

async function isPdf(path: string): Promise<boolean> {
  try {
    const fh = await open(path, 'r');
    try {
      const head = Buffer.alloc(1024);
      const { bytesRead } = await fh.read(head, 0, 1024, 0);
      return head.subarray(0, bytesRead).toString('latin1').includes('%PDF-');
    } finally {
      await fh.close();
    }
  } catch {
    return false;
  }
}

const withNotes = (r: RenderResult, first: string[]): RenderResult =>
  first.length ? { ...r, notes: [...first, ...r.notes] } : r;

const none = (note: string, pageCount: number | null = null): RenderResult => ({
  pages: [],
  pdf: null,
  pageCount,
  notes: [note],
});

/** Out of memory in a tool's words (poppler prints it and may still exit 0; the loader fails to map). */
const OUT_OF_MEMORY = /out of memory|bad_alloc|cannot allocate|failed to map segment/i;

/** Why a tool run produced nothing: missing, out of time, out of its memory cap, or failed. */
function toolFailure(tool: string, r: ToolResult, timeoutMs: number, memoryMb: number, missing: string): string | null {
  if (r.missing) return missing;
  if (r.timedOut) return msg.renderTimedOut(tool, timeoutMs);
  if (r.capped && (OUT_OF_MEMORY.test(r.stderr) || (r.signal !== null && r.signal !== 'SIGKILL')))
    return msg.renderMemoryCap(tool, memoryMb);
  if (!r.signal && r.code === 0) return null;
  return msg.renderFailed(tool, `${r.signal ?? `exit ${r.code}`}: ${r.stderr.trim()}`);
}

/** Runs a tool within its time limit and what is left of the rendering's, and says why it failed. */
async function runWithin(tool: string, cmd: string, args: string[], b: RenderBudget, missing: string) {
  const left = b.deadline - Date.now();
  const timeoutMs = Math.min(b.timeoutMs, left);
  const r = await runTool(cmd, args, timeoutMs, b.memoryMb);
  // Stopped by the file's time budget rather than the tool's own limit: name that budget.
  if (r.timedOut && left < b.timeoutMs) return { r, failure: msg.renderTimeSpent(tool, b.maxRenderMs) };
  return { r, failure: toolFailure(tool, r, timeoutMs, b.memoryMb, missing) };
}

/** The file as given, refused when it is not a regular file, is a hard link, or is over a reading cap. */
async function refusal(file: string, b: RenderBudget, format: Format | null | undefined): Promise<string | Format> {
  const st = await lstat(file).catch((err: unknown) => err as Error);
  if (st instanceof Error) return msg.unreadable(st);
  if (!st.isFile()) return msg.special(st.isSymbolicLink() ? 'symbolic link' : 'not a regular file');
  if (st.nlink > 1) return msg.hardLink(st.nlink);
  if (st.size > b.limits.maxFileBytes) return msg.tooLarge(st.size, b.limits.maxFileBytes);
  const f = format !== undefined ? format : (await detectFile(file, b.limits)).format;
  if (f !== 'docx' && f !== 'xlsx' && f !== 'pptx' && f !== 'pdf') return msg.renderUnsupported(f);
  return f;
}

/**
 * Copies the file into the work folder through a descriptor opened without following links, after
 * checking what the tool would expand: the zip caps for packages, the decoded streams of a PDF.
 */
async function copyInput(file: string, dest: string, format: Format, b: RenderBudget): Promise<Copied> {
  const { limits } = b;
  const fh = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(
    (err: unknown) => err as Error,
  );
  if (fh instanceof Error) return { refused: msg.unreadable(fh) };
  try {
    const s = await fh.stat();
    if (!s.isFile() || s.nlink > 1 || s.size > limits.maxFileBytes)
      return { refused: msg.special('changed while being read') };
    let data: Buffer = await fh.readFile();
    const notes: string[] = [];
    if (format === 'pdf') {
      if (pdfEncrypted(data)) return { refused: msg.pdfEncryptedUnmeasured('page images are not rendered') };
      if (!(await pdfStreamsWithin(data, limits.maxPdfStreamBytes)))
        return { refused: msg.renderPdfStreams(limits.maxPdfStreamBytes) };
    } else {
      const { files } = await readZip(data, limits, (n) => format === 'pptx' && n === 'ppt/presentation.xml');
      const pres = files.get('ppt/presentation.xml');
      const trimmed = pres ? await trimDeck(data, pres.toString('utf8'), b.maxPages) : null;
      if (trimmed) {
        data = trimmed.data;
        notes.push(msg.renderSlidesTrimmed(trimmed.kept, trimmed.slides));
      }
    }
    await writeFile(dest, data);
    return { notes };
  } catch (err) {
    return { refused: err instanceof ZipRefused ? err.message : msg.unreadable(err) };
  } finally {
    await fh.close();
  }
}

type Copied = { refused: string } | { notes: string[] };

async function convertToPdf(
  input: string,
  work: string,
  format: keyof typeof PDF_FILTER,
  b: RenderBudget,
  opts: RenderOptions,
) {
  const profile = opts.profileDir ?? join(tmpdir(), `assay-lo-profile-${process.pid}-${threadId}`);
  // Export only the pages we rasterise: a big workbook would otherwise print hundreds of pages.
  const filter = `pdf:${PDF_FILTER[format]}:${JSON.stringify({ PageRange: { type: 'string', value: `1-${b.maxPages}` } })}`;
  const args = [
    `-env:UserInstallation=${pathToFileURL(profile).href}`,
    '--headless',
    '--norestore',
    '--nologo',
    '--nodefault',
    '--nolockcheck',
    '--convert-to',
    filter,
    '--outdir',
    work,
    input,
  ];
  const { failure } = await withProfile(profile, () =>
    runWithin('LibreOffice', opts.soffice ?? 'soffice', args, b, msg.sofficeMissing),
  );
  const pdf = join(work, 'input.pdf');
  if (await isPdf(pdf)) return { pdf };
  return { note: failure ?? msg.renderNoOutput('LibreOffice', 'PDF') };
}

export async function renderPageImages(file: string, outDir: string, opts: RenderOptions = {}): Promise<RenderResult> {
  const b: RenderBudget = {
    dpi: opts.dpi ?? RENDER_DEFAULTS.dpi,
    maxPages: opts.maxPages ?? RENDER_DEFAULTS.maxPages,
    timeoutMs: opts.timeoutMs ?? RENDER_DEFAULTS.timeoutMs,
    maxPagePixels: opts.maxPagePixels ?? RENDER_DEFAULTS.maxPagePixels,
    maxTotalPixels: opts.maxTotalPixels ?? RENDER_DEFAULTS.maxTotalPixels,
    memoryMb: opts.memoryMb ?? RENDER_DEFAULTS.memoryMb,
    maxRenderMs: opts.maxRenderMs ?? RENDER_DEFAULTS.maxRenderMs,
    deadline: Date.now() + (opts.maxRenderMs ?? RENDER_DEFAULTS.maxRenderMs),
    limits: resolveLimits(opts.limits),
  };
  // Never render through a symlink, a hard link or a special file, nor hand a tool a file over the caps.
  const format = await refusal(file, b, opts.format);
  if (format !== 'docx' && format !== 'xlsx' && format !== 'pptx' && format !== 'pdf') return none(format);
  await mkdir(outDir, { recursive: true });
  const work = await mkdtemp(join(outDir, '.render-'));
  try {
    const input = join(work, `input.${format}`);
    const copied = await copyInput(file, input, format, b);
    if ('refused' in copied) return none(copied.refused);
    const converted = format === 'pdf' ? { pdf: input } : await convertToPdf(input, work, format, b, opts);
    if ('note' in converted)
      return withNotes(none(converted.note ?? msg.renderNoOutput('LibreOffice', 'PDF')), copied.notes);
    return withNotes(await rasterise(converted.pdf, work, outDir, b, opts, format), copied.notes);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** pdfinfo for the page count and sizes, then pdftoppm per run of pages that share a resolution. */
async function rasterise(
  pdf: string,
  work: string,
  outDir: string,
  b: RenderBudget,
  opts: RenderOptions,
  format: Format,
): Promise<RenderResult> {
  const { r: info } = await runWithin('pdfinfo', 'pdfinfo', ['-f', '1', '-l', String(b.maxPages), pdf], b, '');
  const count = /^Pages:\s+(\d+)/m.exec(info.stdout);
  const pageCount = count ? Number(count[1]) : null;
  const sizes = parsePageSizes(info.stdout).slice(0, b.maxPages);
  // Without sizes (pdfinfo failed) pages cannot be budgeted by pixels; the memory cap still holds.
  const plan = sizes.length
    ? planPages(sizes, b.dpi, b.maxPagePixels, b.maxTotalPixels)
    : { groups: [{ first: 1, last: b.maxPages, dpi: b.dpi }], notes: [] };
  const notes = [...plan.notes];
  for (const g of plan.groups) {
    if (b.deadline - Date.now() <= 0) {
      notes.push(msg.renderTimeBudget(b.maxRenderMs, g.first - 1));
      break;
    }
    const args = ['-png', '-r', String(g.dpi), '-f', String(g.first), '-l', String(g.last), pdf, join(work, 'page')];
    const { failure } = await runWithin('pdftoppm', opts.pdftoppm ?? 'pdftoppm', args, b, msg.pdftoppmMissing);
    if (failure) {
      // What a failed run left behind is not trusted (poppler writes a stub when memory runs out).
      await dropPages(work, g.first, g.last);
      notes.push(failure);
      break;
    }
  }
  const pages = await collectPages(work, outDir);
  if (pages.length === 0) {
    const failed = notes.some((n) => n.startsWith('pdftoppm') || n === msg.pdftoppmMissing);
    return {
      pages,
      pdf: null,
      pageCount,
      notes: failed ? notes : [...notes, msg.renderNoOutput('pdftoppm', 'page images')],
    };
  }
  if (pageCount !== null && pageCount > pages.length) notes.push(msg.renderPagesCapped(pages.length));
  else if (format !== 'pdf' && pages.length >= b.maxPages) notes.push(msg.renderPagesCapped(pages.length));
  const pdfCopy = join(outDir, 'document.pdf');
  await copyFile(pdf, pdfCopy);
  return { pages, pdf: pdfCopy, pageCount, notes };
}

async function dropPages(work: string, first: number, last: number): Promise<void> {
  for (const { n, page } of await pageFiles(work)) if (page >= first && page <= last) await rm(join(work, n));
}

async function pageFiles(work: string): Promise<Array<{ n: string; page: number }>> {
  return (await readdir(work))
    .map((n) => ({ n, m: /^page-(\d+)\.png$/.exec(n) }))
    .filter((x): x is { n: string; m: RegExpExecArray } => x.m !== null)
    .map(({ n, m }) => ({ n, page: Number(m[1]) }))
    .sort((a, b) => a.page - b.page);
}

async function collectPages(work: string, outDir: string): Promise<string[]> {
  const pages: string[] = [];
  for (const { n, page } of await pageFiles(work)) {
    const dest = join(outDir, `page-${page}.png`);
    if ((await stat(join(work, n))).size === 0) continue;
    await copyFile(join(work, n), dest);
    pages.push(dest);
  }
  return pages;
}
