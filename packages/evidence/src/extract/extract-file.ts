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
import type { Format } from '@assay/core';
import type { Detection, ExtractResult, FileEvidence } from '../types.js';
import { NoteList } from './note-list.js';
import { OutputBudget, type BudgetOptions } from './output-budget.js';
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

/** A RangeError from an allocation the memory cap refused (or V8's own size limits). */
const MEMORY_ERROR = /allocation failed|Cannot create a Buffer larger|Invalid string length|Invalid array length/;

type Extracted = { evidence: FileEvidence | null; notes: string[] };

async function extractFormat(
  f: Format,
  data: Buffer,
  limits: EvidenceLimits,
  budget: OutputBudget,
): Promise<Extracted> {
  if (f === 'xlsx' || f === 'docx' || f === 'pptx') {
    const zip = await readZip(data, limits, xmlPart);
    const read = f === 'xlsx' ? extractXlsx : f === 'docx' ? extractDocx : extractPptx;
    const out = read(zip.files, limits, budget);
    return { evidence: out.evidence, notes: [...zip.notes, ...out.notes] };
  }
  if (f === 'pdf') {
    // pdfjs is large: loaded only when a PDF is met.
    const { extractPdf } = await import('./extract-pdf.js');
    return extractPdf(data, limits, budget);
  }
  if (f === 'png' || f === 'jpg' || f === 'svg') return extractImage(f, data, limits.maxXmlDepth);
  if (f === 'csv') return extractCsv(data, limits, budget);
  return extractText(f, data, limits, budget);
}

function failureNote(err: unknown, format: string, limits: EvidenceLimits): string {
  if (err instanceof ZipRefused) return err.message;
  if (err instanceof XmlError) return msg.parseFailed(format, `XML refused: ${err.message}`);
  if (err instanceof RangeError && MEMORY_ERROR.test(err.message))
    return msg.memoryCap(format, limits.childAddressSpaceMb);
  return msg.parseFailed(format, err);
}

export async function extractBuffer(
  data: Buffer,
  name: string,
  limitsIn?: Partial<EvidenceLimits>,
  budgetOptions: BudgetOptions = {},
): Promise<ExtractResult> {
  const limits = resolveLimits(limitsIn);
  const detection = await detectBuffer(data, name, limits);
  const notes = new NoteList();
  if (detection.format !== null && detection.note) notes.push(detection.note);
  let evidence: FileEvidence | null = null;
  const f = detection.format;
  // A soft deadline before the hard kill: what was read by then is kept, with a note.
  const timeMs = Math.min(limits.maxExtractMs, limits.perFileTimeoutMs / 2);
  const budget = new OutputBudget(limits, { timeMs, ...budgetOptions });
  if (f === null) notes.push(unsupportedNote(detection));
  else {
    try {
      const out = await extractFormat(f, data, limits, budget);
      evidence = out.evidence;
      notes.push(...out.notes);
    } catch (err) {
      evidence = null;
      notes.push(failureNote(err, f, limits));
    }
  }
  // Budget notes first: a capped note list must never drop them.
  return { detection, evidence, notes: evidence ? [...budget.notes(), ...notes.list()] : notes.list() };
}

/** Reads and extracts the file at `absPath` (never following it if it is not a regular file). */
export async function extractFile(
  absPath: string,
  name: string,
  limitsIn?: Partial<EvidenceLimits>,
  budgetOptions: BudgetOptions = {},
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
    // Checked on the open file, not only by the walk: the name may have been relinked since.
    if (stat.nlink > 1)
      return { detection: { format: null, type: 'hard link' }, evidence: null, notes: [msg.hardLink(stat.nlink)] };
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
    return await extractBuffer(data, name, limits, budgetOptions);
  } catch (err) {
    return { detection: { format: null, type: 'unreadable' }, evidence: null, notes: [msg.unreadable(err)] };
  } finally {
    await fh.close();
  }
}
