// Text deliverables: csv (parsed into rows), md (headings), html (visible text, headings), json,
// txt and code (text as written). The text is cut to the output budget before it is converted, so
// no conversion works on (or yields) more than the budget holds.
import { decodeEntities } from '../xml/parse-xml.js';
import { msg } from '../messages.js';
import type { EvidenceLimits } from '../limits.js';
import type { CsvEvidence, TextEvidence } from '../types.js';
import type { OutputBudget } from './output-budget.js';

/** Decodes UTF-8 (or UTF-16 with a BOM), noting undecodable bytes. */
function decodeText(data: Buffer, notes: string[]): string {
  let text: string;
  if (data[0] === 0xff && data[1] === 0xfe) text = new TextDecoder('utf-16le').decode(data.subarray(2));
  else if (data[0] === 0xfe && data[1] === 0xff) text = new TextDecoder('utf-16be').decode(data.subarray(2));
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(data);
    } catch {
      notes.push(msg.invalidUtf8);
      text = new TextDecoder('utf-8').decode(data);
    }
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text;
}

/** The first characters of `text` that the budget can hold (converting more would be wasted work). */
function budgetedText(text: string, budget: OutputBudget): string {
  const room = budget.room();
  return text.length <= room ? text : text.slice(0, room);
}

/** Charges the text kept of a file of `total` characters (recording the cut when it is shorter). */
function charged(text: string, total: number, wasCut: boolean, budget: OutputBudget): string {
  if (!wasCut) return budget.cut('text', text) ?? '';
  const keep = Math.min(text.length, budget.room());
  budget.cutText('text', keep, total);
  return text.slice(0, keep);
}

/** Splits CSV text into rows (RFC 4180 quoting) with the given delimiter, stopping after `maxFields` fields. */
export function parseCsv(text: string, delimiter: string, maxFields = Infinity): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let fields = 0;
  for (let i = 0; i < text.length && fields <= maxFields; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === delimiter) {
      row.push(field);
      fields++;
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      fields++;
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** The delimiter that splits the first lines into the most consistent number of fields. */
export function guessDelimiter(text: string): { delimiter: string; consistent: boolean } {
  const lines = text
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .slice(0, 50);
  let best = { delimiter: ',', consistent: false, fields: 0 };
  for (const d of [',', '\t', ';', '|']) {
    const counts = parseCsv(lines.join('\n'), d).map((r) => r.length);
    const first = counts[0] ?? 0;
    if (first < 2 || counts.length < 2) continue;
    const same = counts.filter((c) => c === first).length / counts.length;
    if (same >= 0.8 && first > best.fields) best = { delimiter: d, consistent: true, fields: first };
  }
  return { delimiter: best.delimiter, consistent: best.consistent };
}

function markdownHeadings(text: string): TextEvidence['headings'] {
  const out: TextEvidence['headings'] = [];
  let fence = false;
  text.split(/\r?\n/).forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const m = fence ? null : /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (m) out.push({ level: m[1]!.length, text: m[2]!, line: i + 1 });
  });
  return out;
}

const BLOCK = /<\/?(p|div|br|li|tr|h[1-6]|table|section|article|header|footer|ul|ol|blockquote|pre|title)\b[^>]*>/gi;

/** Visible text of an HTML page, one block per line, plus its headings. */
function htmlToText(html: string): { text: string; headings: TextEvidence['headings'] } {
  const body = html.replace(/<!--[\s\S]*?-->/g, '').replace(/<(script|style|template)\b[\s\S]*?<\/\1\s*>/gi, '');
  const headings: TextEvidence['headings'] = [];
  const text = decodeEntities(
    body
      .replace(/<(t[dh])\b[^>]*>/gi, ' | ')
      .replace(BLOCK, '\n')
      .replace(/<[^>]*>/g, ''),
  )
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
  for (const m of body.matchAll(/<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1\s*>/gi)) {
    const t = decodeEntities(m[2]!.replace(/<[^>]*>/g, ''))
      .replace(/\s+/g, ' ')
      .trim();
    if (t) headings.push({ level: Number(m[1]), text: t, line: 0 });
  }
  const lines = text.split('\n');
  for (const h of headings) h.line = lines.findIndex((l) => l === h.text) + 1;
  return { text, headings };
}

function lineCount(text: string): number {
  return text === '' ? 0 : text.split('\n').length;
}

/** Nesting depth of JSON text, counted without parsing (so a hostile depth cannot overflow anything). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92) i++;
      else if (ch === 34) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 123 || ch === 91) max = Math.max(max, ++depth);
    else if (ch === 125 || ch === 93) depth--;
  }
  return max;
}

export function extractCsv(
  data: Buffer,
  limits: EvidenceLimits,
  budget: OutputBudget,
): { evidence: CsvEvidence; notes: string[] } {
  const notes: string[] = [];
  const full = decodeText(data, notes);
  const text = budgetedText(full, budget);
  const { delimiter } = guessDelimiter(text.slice(0, 1 << 20));
  const parsed = parseCsv(text, delimiter, limits.maxCells).filter((r) => !(r.length === 1 && r[0] === ''));
  const rows: string[][] = [];
  let i = 0;
  for (; i < parsed.length; i++) {
    const r = parsed[i]!;
    // JSON adds quotes and a comma per field, not a cell's 80 bytes of keys.
    if (
      !budget.take(
        'cells',
        r.reduce((n, f) => n + f.length, 0),
        r.length,
        3 * r.length + 2,
      )
    )
      break;
    rows.push(r);
  }
  const rest = parsed.slice(i + 1).reduce((n, r) => n + r.length, 0);
  const complete = text.length === full.length && parsed.reduce((n, r) => n + r.length, 0) <= limits.maxCells;
  if (i < parsed.length || !complete) budget.skip('cells', rest, complete);
  if (text.length < full.length) budget.cutText('text', text.length, full.length, false);
  return { evidence: { format: 'csv', delimiter, rows }, notes };
}

export function extractText(
  format: TextEvidence['format'],
  data: Buffer,
  limits: EvidenceLimits,
  budget: OutputBudget,
): { evidence: TextEvidence; notes: string[] } {
  const notes: string[] = [];
  const full = decodeText(data, notes);
  const raw = budgetedText(full, budget);
  const wasCut = raw.length < full.length;
  if (format === 'html') {
    const { text, headings } = htmlToText(raw);
    const kept = charged(text, full.length, wasCut, budget);
    budget.addCopy(
      headings.reduce((n, h) => n + h.text.length, 0),
      40 * headings.length,
    );
    return { evidence: { format, text: kept, lineCount: lineCount(kept), headings }, notes };
  }
  if (format === 'json') {
    const depth = jsonDepth(raw);
    if (depth > limits.maxXmlDepth)
      notes.push(msg.jsonInvalid(`nested ${depth} levels deep (cap ${limits.maxXmlDepth}); kept as text`));
    else {
      try {
        JSON.parse(raw);
      } catch (err) {
        notes.push(msg.jsonInvalid(err));
      }
    }
  }
  const kept = charged(raw, full.length, wasCut, budget);
  const lines = lineCount(kept);
  const headings = format === 'md' ? markdownHeadings(kept).filter((h) => h.line <= lines) : [];
  budget.addCopy(
    headings.reduce((n, h) => n + h.text.length, 0),
    40 * headings.length,
  );
  return { evidence: { format, text: kept, lineCount: lines, headings }, notes };
}
