// pdf -> evidence with pdfjs-dist (legacy build, for Node): page count, text per page, document info.
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { msg } from '../messages.js';
import type { EvidenceLimits } from '../limits.js';
import type { PdfEvidence } from '../types.js';

interface TextItemLike {
  str?: string;
  hasEOL?: boolean;
}

export async function extractPdf(
  data: Buffer,
  limits: EvidenceLimits,
): Promise<{ evidence: PdfEvidence | null; notes: string[] }> {
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
    const info: Record<string, string> = {};
    try {
      const meta = await doc.getMetadata();
      for (const [k, v] of Object.entries((meta.info ?? {}) as Record<string, unknown>)) {
        if (
          typeof v === 'string' &&
          v &&
          ['Title', 'Author', 'Subject', 'Creator', 'Producer', 'CreationDate'].includes(k)
        )
          info[k] = v;
      }
    } catch {
      // metadata is optional
    }
    const pageCount = doc.numPages;
    const last = Math.min(pageCount, limits.maxPages);
    if (last < pageCount) notes.push(msg.pagesTruncated(last, pageCount));
    const pages: PdfEvidence['pages'] = [];
    let chars = 0;
    for (let n = 1; n <= last; n++) {
      try {
        const page = await doc.getPage(n);
        const content = await page.getTextContent();
        const text = (content.items as TextItemLike[])
          .map((it) => (it.str ?? '') + (it.hasEOL ? '\n' : ''))
          .join('')
          .replace(/[ \t]+\n/g, '\n')
          .trim();
        page.cleanup();
        chars += text.length;
        if (chars > limits.maxTextChars) {
          notes.push(msg.textTruncated(limits.maxTextChars));
          break;
        }
        pages.push({ page: n, text });
      } catch (err) {
        notes.push(msg.pdfPageFailed(n, err));
        pages.push({ page: n, text: '' });
      }
    }
    return { evidence: { format: 'pdf', pageCount, pages, info }, notes };
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}
