// One file -> detection + evidence + notes, in the current process. Hostile input is bounded by the
// caps here, but only the isolated runner (run-isolated.ts) also bounds time and memory: callers
// outside this package should use buildSubmissionView or extractFileIsolated.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { detectBuffer, detectHead } from '../detect-format.js';
import { readZip, ZipRefused } from '../zip/read-zip.js';
import { XmlError } from '../xml/parse-xml.js';
import { msg } from '../messages.js';
import { resolveLimits } from '../limits.js';
import type { EvidenceLimits } from '../limits.js';
import type { Detection, ExtractResult, FileEvidence } from '../types.js';
import { extractXlsx } from './extract-xlsx.js';
import { extractDocx } from './extract-docx.js';
import { extractPptx } from './extract-pptx.js';
import { extractImage } from './extract-image.js';
import { extractCsv, extractText } from './extract-text.js';

function unsupportedNote(d: Detection): string {
  if (d.note) return d.note;
  if (d.type === 'empty') return msg.empty;
  if (d.type === 'ole2-encrypted') return msg.ole2Encrypted;
  if (d.type === 'ole2') return msg.ole2Legacy;
  if (/^(docm|xlsm|pptm|dotx|xltx|potx)/.test(d.type)) return msg.macroEnabled(d.type);
  return msg.unknownBinary(d.type);
}

/** OOXML parts worth keeping in memory: XML and relationships, not media. */
const xmlPart = (name: string) => name.endsWith('.xml') || name.endsWith('.rels');

export async function extractBuffer(
  data: Buffer,
  name: string,
  limitsIn?: Partial<EvidenceLimits>,
): Promise<ExtractResult> {
  const limits = resolveLimits(limitsIn);
  const detection = await detectBuffer(data, name, limits);
  const notes: string[] = detection.format !== null && detection.note ? [detection.note] : [];
  let evidence: FileEvidence | null = null;
  const f = detection.format;
  try {
    if (f === 'xlsx' || f === 'docx' || f === 'pptx') {
      const zip = await readZip(data, limits, xmlPart);
      notes.push(...zip.notes);
      const out =
        f === 'xlsx'
          ? extractXlsx(zip.files, limits)
          : f === 'docx'
            ? extractDocx(zip.files, limits)
            : extractPptx(zip.files, limits);
      evidence = out.evidence;
      notes.push(...out.notes);
    } else if (f === 'pdf') {
      // pdfjs is large: loaded only when a PDF is met.
      const { extractPdf } = await import('./extract-pdf.js');
      const out = await extractPdf(data, limits);
      evidence = out.evidence;
      notes.push(...out.notes);
    } else if (f === 'png' || f === 'jpg' || f === 'svg') {
      const out = extractImage(f, data, limits.maxXmlDepth);
      evidence = out.evidence;
      notes.push(...out.notes);
    } else if (f === 'csv') {
      const out = extractCsv(data, limits);
      evidence = out.evidence;
      notes.push(...out.notes);
    } else if (f !== null) {
      const out = extractText(f, data, limits);
      evidence = out.evidence;
      notes.push(...out.notes);
    } else {
      notes.push(unsupportedNote(detection));
    }
  } catch (err) {
    evidence = null;
    if (err instanceof ZipRefused) notes.push(err.message);
    else if (err instanceof XmlError) notes.push(msg.parseFailed(f ?? detection.type, `XML refused: ${err.message}`));
    else notes.push(msg.parseFailed(f ?? detection.type, err));
  }
  return { detection, evidence, notes };
}

/** Reads and extracts the file at `absPath` (never following it if it is not a regular file). */
export async function extractFile(
  absPath: string,
  name: string,
  limitsIn?: Partial<EvidenceLimits>,
): Promise<ExtractResult> {
  const limits = resolveLimits(limitsIn);
  let fh;
  try {
    fh = await open(absPath, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (err) {
    return { detection: { format: null, type: 'unreadable' }, evidence: null, notes: [msg.unreadable(err)] };
  }
  try {
    const stat = await fh.stat();
    if (!stat.isFile())
      return {
        detection: { format: null, type: 'special' },
        evidence: null,
        notes: [msg.special('not a regular file')],
      };
    if (stat.size > limits.maxFileBytes) {
      const head = Buffer.alloc(Math.min(8192, stat.size));
      await fh.read(head, 0, head.length, 0);
      return {
        detection: detectHead(head, name),
        evidence: null,
        notes: [msg.tooLarge(stat.size, limits.maxFileBytes)],
      };
    }
    const data = await fh.readFile();
    return await extractBuffer(data, name, limits);
  } catch (err) {
    return { detection: { format: null, type: 'unreadable' }, evidence: null, notes: [msg.unreadable(err)] };
  } finally {
    await fh.close();
  }
}
