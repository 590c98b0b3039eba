// Page images: docx/xlsx/pptx -> PDF with LibreOffice headless, PDF -> PNG pages with pdftoppm.
// Each worker uses its own LibreOffice profile (-env:UserInstallation): two soffice processes sharing
// a profile fail or hang. Every output is checked to exist; every tool runs under a time limit and
// is killed with its whole process group when it overruns.
import { spawn } from 'node:child_process';
import { copyFile, lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';
import type { Format } from '@assay/core';
import { detectFile } from './detect-format.js';
import { readZip, ZipRefused } from './zip/read-zip.js';
import { resolveLimits } from './limits.js';
import type { EvidenceLimits } from './limits.js';
import { msg } from './messages.js';

export interface RenderOptions {
  /** Resolution of the PNGs (default 72 dpi). */
  dpi?: number;
  /** Pages rendered at most (default 20). */
  maxPages?: number;
  /** Time limit for each tool run (default 120 s). */
  timeoutMs?: number;
  /** LibreOffice profile folder; default: one per process and thread under the temp folder. */
  profileDir?: string;
  /** Skip detection when the caller already knows the format. */
  format?: Format | null;
  soffice?: string;
  pdftoppm?: string;
  /** Caps checked before LibreOffice sees the file (size, zip entries and decompressed size). */
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

interface RunResult {
  code: number | null;
  stderr: string;
  timedOut: boolean;
  missing: boolean;
}

function run(cmd: string, args: string[], timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve) => {
    let stderr = '';
    let timedOut = false;
    const child = spawn(cmd, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString('utf8')).slice(-2000);
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ code: null, stderr: err.message, timedOut, missing: err.code === 'ENOENT' });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      killGroup(); // soffice may leave helpers behind
      resolve({ code, stderr, timedOut, missing: false });
    });
  });
}

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

async function pdfPageCount(pdf: string, timeoutMs: number): Promise<number | null> {
  return new Promise((resolve) => {
    let out = '';
    const child = spawn('pdfinfo', [pdf], { stdio: ['ignore', 'pipe', 'ignore'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.on('error', () => resolve(null));
    child.on('close', () => {
      clearTimeout(timer);
      const m = /^Pages:\s+(\d+)/m.exec(out);
      resolve(m ? Number(m[1]) : null);
    });
  });
}

export async function renderPageImages(file: string, outDir: string, opts: RenderOptions = {}): Promise<RenderResult> {
  const dpi = opts.dpi ?? 72;
  const maxPages = opts.maxPages ?? 20;
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const notes: string[] = [];
  const none = (note: string): RenderResult => ({ pages: [], pdf: null, pageCount: null, notes: [note] });
  // Never render through a symlink or a special file, nor hand LibreOffice a file over the caps.
  const limits = resolveLimits(opts.limits);
  const st = await lstat(file).catch((err: unknown) => err as Error);
  if (st instanceof Error) return none(msg.unreadable(st));
  if (!st.isFile()) return none(msg.special(st.isSymbolicLink() ? 'symbolic link' : 'not a regular file'));
  if (st.size > limits.maxFileBytes) return none(msg.tooLarge(st.size, limits.maxFileBytes));
  const format = opts.format !== undefined ? opts.format : (await detectFile(file, limits)).format;
  if (format !== 'docx' && format !== 'xlsx' && format !== 'pptx' && format !== 'pdf')
    return none(msg.renderUnsupported(format));
  if (format !== 'pdf') {
    try {
      await readZip(await readFile(file), limits, () => false);
    } catch (err) {
      if (err instanceof ZipRefused) return none(err.message);
      throw err;
    }
  }
  await mkdir(outDir, { recursive: true });
  const work = await mkdtemp(join(outDir, '.render-'));
  try {
    const input = join(work, `input.${format}`);
    await copyFile(file, input);
    let pdf = input;
    if (format !== 'pdf') {
      const profile = opts.profileDir ?? join(tmpdir(), `assay-lo-profile-${process.pid}-${threadId}`);
      const soffice = opts.soffice ?? 'soffice';
      // Export only the pages we rasterise: a big workbook would otherwise print hundreds of pages.
      const filter = `pdf:${PDF_FILTER[format]}:${JSON.stringify({ PageRange: { type: 'string', value: `1-${maxPages}` } })}`;
      const r = await withProfile(profile, () =>
        run(
          soffice,
          [
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
          ],
          timeoutMs,
        ),
      );
      if (r.missing) return { pages: [], pdf: null, pageCount: null, notes: [msg.sofficeMissing] };
      if (r.timedOut)
        return { pages: [], pdf: null, pageCount: null, notes: [msg.renderTimedOut('LibreOffice', timeoutMs)] };
      pdf = join(work, 'input.pdf');
      if (!(await isPdf(pdf))) {
        const detail =
          r.code !== 0
            ? msg.renderFailed('LibreOffice', `exit ${r.code}: ${r.stderr.trim()}`)
            : msg.renderNoOutput('LibreOffice', 'PDF');
        return { pages: [], pdf: null, pageCount: null, notes: [detail] };
      }
    }
    const pageCount = await pdfPageCount(pdf, timeoutMs);
    const r = await run(
      opts.pdftoppm ?? 'pdftoppm',
      ['-png', '-r', String(dpi), '-f', '1', '-l', String(maxPages), pdf, join(work, 'page')],
      timeoutMs,
    );
    if (r.missing) return { pages: [], pdf: null, pageCount, notes: [msg.pdftoppmMissing] };
    if (r.timedOut) return { pages: [], pdf: null, pageCount, notes: [msg.renderTimedOut('pdftoppm', timeoutMs)] };
    if (r.code !== 0)
      return {
        pages: [],
        pdf: null,
        pageCount,
        notes: [msg.renderFailed('pdftoppm', `exit ${r.code}: ${r.stderr.trim()}`)],
      };
    const produced = (await readdir(work))
      .map((n) => ({ n, m: /^page-(\d+)\.png$/.exec(n) }))
      .filter((x): x is { n: string; m: RegExpExecArray } => x.m !== null)
      .sort((a, b) => Number(a.m[1]) - Number(b.m[1]));
    const pages: string[] = [];
    for (const { n, m } of produced) {
      const dest = join(outDir, `page-${Number(m[1])}.png`);
      if ((await stat(join(work, n))).size === 0) continue;
      await copyFile(join(work, n), dest);
      pages.push(dest);
    }
    if (pages.length === 0)
      return { pages, pdf: null, pageCount, notes: [msg.renderNoOutput('pdftoppm', 'page images')] };
    if (pageCount !== null && pageCount > pages.length) notes.push(msg.renderPagesCapped(pages.length));
    else if (format !== 'pdf' && pages.length >= maxPages) notes.push(msg.renderPagesCapped(pages.length));
    const pdfCopy = join(outDir, 'document.pdf');
    await copyFile(pdf, pdfCopy);
    return { pages, pdf: pdfCopy, pageCount, notes };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
