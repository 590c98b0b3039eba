// pdf -> evidence with pdfjs-dist (legacy build, for Node): page count, text per page, document
// info. The file's streams are measured first (a flate bomb is refused before pdfjs inflates it; an
// encrypted file, whose streams cannot be measured, is refused);
// page text is streamed and cut at the output budget, so no page yields more than the budget holds.
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { msg } from '../messages.js';
import type { EvidenceLimits } from '../limits.js';
import type { PdfEvidence } from '../types.js';
import type { OutputBudget } from './output-budget.js';
import { pdfEncrypted } from './pdf-encryption.js';
import { pdfStreamsWithin } from './scan-pdf-streams.js';

interface TextItemLike {
  str?: string;
  hasEOL?: boolean;
}

const INFO_KEYS = ['Title', 'Author', 'Subject', 'Creator', 'Producer', 'CreationDate'];

interface PageText {
  text: string;
  /** Reading stopped early: past `room` characters, or at the deadline. */
  cut: boolean;
  late: boolean;
}

const DEADLINE_ERROR = 'extraction time budget reached';
const realNow = Date.now;
/** Deadlines of the extractions running now (in-process callers may run several at once). */
const armed = new Set<{ deadline: number; late: boolean }>();

function deadlineNow(): number {
  const t = realNow();
  for (const a of armed) {
    if (t <= a.deadline) continue;
    a.late = true;
    throw new Error(DEADLINE_ERROR);
  }
  return t;
}

/**
 * Runs `fn` with a deadline pdfjs cannot ignore. pdfjs evaluates a page's operators in microtasks
 * only, so no timer fires until the page is done (a page of millions of operators takes minutes);
 * but it reads Date.now every 100 operators to slice its time. Armed, Date.now throws past the
 * deadline, and pdfjs (which ignores errors in text extraction) ends the page with the text it has.
 */
async function withDeadline(ms: number, fn: () => Promise<void>): Promise<boolean> {
  if (!Number.isFinite(ms)) {
    await fn();
    return false;
  }
  const entry = { deadline: realNow() + ms, late: false };
  armed.add(entry);
  Date.now = deadlineNow;
  try {
    await fn();
  } catch (err) {
    if (!entry.late) throw err;
  } finally {
    armed.delete(entry);
    if (armed.size === 0) Date.now = realNow;
  }
  return entry.late;
}

/** A page's text, read in chunks until it ends or passes `room` characters; stopped at the deadline. */
async function pageText(page: PDFPageProxy, room: number, budget: OutputBudget): Promise<PageText> {
  const parts: string[] = [];
  let length = 0;
  let cut = false;
  const read = async () => {
    const reader = page.streamTextContent().getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      for (const it of (value as { items: TextItemLike[] }).items) {
        const s = (it.str ?? '') + (it.hasEOL ? '\n' : '');
        parts.push(s);
        length += s.length;
      }
      if (length > room) {
        cut = true;
        await reader.cancel();
        return;
      }
    }
  };
  const late = await withDeadline(budget.msLeft(), read);
  const text = parts
    .join('')
    .replace(/[ \t]+\n/g, '\n')
    .trim();
  return { text, cut: cut || late, late };
}

export async function extractPdf(
  data: Buffer,
  limits: EvidenceLimits,
  budget: OutputBudget,
): Promise<{ evidence: PdfEvidence | null; notes: string[] }> {
  if (pdfEncrypted(data)) return { evidence: null, notes: [msg.pdfEncryptedUnmeasured('its text is not read')] };
  if (!(await pdfStreamsWithin(data, limits.maxPdfStreamBytes)))
    return { evidence: null, notes: [msg.pdfStreamsTooLarge(limits.maxPdfStreamBytes)] };
  const notes: string[] = [];
  const task = getDocument({
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  let doc;
  try {
    doc = await task.promise;
  } catch (err) {
    await task.destroy().catch(() => undefined);
    if (err instanceof Error && err.name === 'PasswordException') return { evidence: null, notes: [msg.pdfEncrypted] };
    throw err;
  }
  try {
    const info = await readInfo(doc, budget);
    const pageCount = doc.numPages;
    const pages: PdfEvidence['pages'] = [];
    for (let n = 1; n <= pageCount; n++) {
      if (budget.closed('pages')) {
        budget.skip('pages', pageCount - n + 1);
        break;
      }
      try {
        const page = await doc.getPage(n);
        const { text, cut, late } = await pageText(page, budget.room('pages'), budget);
        page.cleanup();
        const kept = cut ? keepCut(budget, text, late) : budget.cut('pages', text);
        if (kept !== null && (kept !== '' || !cut)) pages.push({ page: n, text: kept });
      } catch (err) {
        notes.push(msg.pdfPageFailed(n, err));
        if (budget.take('pages')) pages.push({ page: n, text: '' });
      }
    }
    return { evidence: { format: 'pdf', pageCount, pages, info }, notes };
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}

/** A page whose reading stopped early (at the budget or the deadline): keep what fits; its length is unknown. */
function keepCut(budget: OutputBudget, text: string, late: boolean): string {
  const keep = Math.min(text.length, budget.room('pages'));
  if (text.length > 0) budget.cutText('pages', keep, text.length, true, true, late);
  else {
    budget.expire();
    budget.skip('pages', 1);
  }
  return text.slice(0, keep);
}

async function readInfo(doc: { getMetadata(): Promise<{ info?: unknown }> }, budget: OutputBudget) {
  const info: Record<string, string> = {};
  try {
    const meta = await doc.getMetadata();
    for (const [k, v] of Object.entries((meta.info ?? {}) as Record<string, unknown>)) {
      if (typeof v === 'string' && v && INFO_KEYS.includes(k) && budget.take('text', k.length + v.length, 0))
        info[k] = v;
    }
  } catch {
    // metadata is optional
  }
  return info;
}
