// Tools the evidence view needs on the host: LibreOffice (headless, no GUI variants) to turn
// office files into PDF, poppler's pdftoppm/pdftotext for page images and text, and fonts
// metric-compatible with Word/Excel defaults so page layout is close to the author's.
// Chromium only on request (browser tests, HTML deliverables).
import { aptInstall, debInstalled } from './apt.js';
import { messages } from './messages.js';
import { which, type Log } from './run.js';

const DOCUMENT_PACKAGES = [
  'libreoffice-writer-nogui',
  'libreoffice-calc-nogui',
  'libreoffice-impress-nogui',
  'poppler-utils',
  'fonts-dejavu-core',
  'fonts-liberation2',
  'fonts-crosextra-carlito',
  'fonts-crosextra-caladea',
  // The scripted agents' libraries, at the versions their container has, for running them on the host in tests.
  'python3-openpyxl',
  'python3-docx',
] as const;

export interface DocumentToolsOptions {
  log?: Log;
  root?: string;
  chromium?: boolean;
}

export interface DocumentTools {
  soffice: string;
  pdftoppm: string;
  pdftotext: string;
  chromium?: string;
  installed: string[];
}

export async function ensureDocumentTools(opts: DocumentToolsOptions = {}): Promise<DocumentTools> {
  const log = opts.log ?? (() => {});
  const installed: string[] = [];
  const otherMissing = [];
  for (const p of DOCUMENT_PACKAGES.filter((x) => x.startsWith('fonts-') || x.startsWith('python3-')))
    if (!(await debInstalled(p))) otherMissing.push(p);
  if (which('soffice') && which('pdftoppm') && which('pdftotext') && otherMissing.length === 0) {
    log('document tools present (soffice, pdftoppm, pdftotext, fonts, python3-openpyxl, python3-docx)');
  } else {
    await aptInstall(DOCUMENT_PACKAGES, { log, noRecommends: true, ...(opts.root ? { root: opts.root } : {}) });
    installed.push(...DOCUMENT_PACKAGES);
  }
  let chromium: string | undefined;
  if (opts.chromium) {
    chromium = which('chromium');
    if (chromium) log(`chromium present: ${chromium}`);
    else {
      await aptInstall(['chromium'], { log, noRecommends: true, ...(opts.root ? { root: opts.root } : {}) });
      installed.push('chromium');
      chromium = which('chromium');
      if (!chromium) throw new Error(messages.documentToolMissingAfterInstall('chromium'));
    }
  }
  const need = (tool: string): string => {
    const p = which(tool);
    if (!p) throw new Error(messages.documentToolMissingAfterInstall(tool));
    return p;
  };
  return {
    soffice: need('soffice'),
    pdftoppm: need('pdftoppm'),
    pdftotext: need('pdftotext'),
    ...(chromium ? { chromium } : {}),
    installed,
  };
}
