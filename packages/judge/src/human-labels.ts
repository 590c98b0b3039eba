// Expert labels for judge-reliability reports.
//
// CSV (header row required, any column order, RFC 4180 quoting):
//   subject,item,label,group,annotator
//   claude-code/fin-03/1,totals-correct,satisfied,calculation-precision,expert-a
// JSONL (one object a line):
//   {"subject":"claude-code/fin-03/1","item":"totals-correct","label":"not-satisfied","group":"calculation-precision"}
// `subject` names one judged submission (convention: <system>/<task>/<trial>, or
// <system>/<project>/<subtask> for checkpoints); `item` is the rubric item / criterion id.
// `label` is satisfied | not-satisfied (also accepted: 1/0, yes/no, true/false, pass/fail).
// `group` (target, dimension...) and `annotator` are optional.
import { readFile } from 'node:fs/promises';
import { messages } from './messages.js';

export interface HumanLabel {
  subject: string;
  item: string;
  label: 'satisfied' | 'not-satisfied';
  group?: string;
  annotator?: string;
}

const YES = new Set(['satisfied', '1', 'yes', 'true', 'pass', 'y']);
const NO = new Set(['not-satisfied', 'not satisfied', 'not_satisfied', 'unsatisfied', '0', 'no', 'false', 'fail', 'n']);

function toLabel(raw: unknown): HumanLabel['label'] | null {
  const s = String(raw ?? '')
    .trim()
    .toLowerCase();
  return YES.has(s) ? 'satisfied' : NO.has(s) ? 'not-satisfied' : null;
}

/** Split CSV text into rows of fields (quotes, doubled quotes, CRLF and newlines in quotes). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field.length > 0 || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f.trim().length > 0));
}

function build(where: string, line: number, o: Record<string, unknown>): HumanLabel {
  const subject = String(o.subject ?? '').trim();
  const item = String(o.item ?? o.itemId ?? '').trim();
  if (!subject || !item) throw new Error(messages.labelsParse(where, line, 'subject and item are required'));
  const label = toLabel(o.label);
  if (!label)
    throw new Error(messages.labelsParse(where, line, `label "${String(o.label)}" is not satisfied / not-satisfied`));
  const group = o.group === undefined || o.group === '' ? undefined : String(o.group);
  const annotator = o.annotator === undefined || o.annotator === '' ? undefined : String(o.annotator);
  return { subject, item, label, ...(group ? { group } : {}), ...(annotator ? { annotator } : {}) };
}

export function parseHumanLabels(text: string, format: 'csv' | 'jsonl', where = '(text)'): HumanLabel[] {
  if (format === 'jsonl') {
    return text.split(/\r?\n/).flatMap((line, i) => {
      if (line.trim().length === 0) return [];
      let o: unknown;
      try {
        o = JSON.parse(line);
      } catch (err) {
        throw new Error(messages.labelsParse(where, i + 1, (err as Error).message));
      }
      if (typeof o !== 'object' || o === null) throw new Error(messages.labelsParse(where, i + 1, 'not a JSON object'));
      return [build(where, i + 1, o as Record<string, unknown>)];
    });
  }
  const [header, ...rows] = parseCsv(text);
  if (!header) return [];
  const cols = header.map((h) => h.trim().toLowerCase());
  for (const need of ['subject', 'item', 'label']) {
    if (!cols.includes(need)) throw new Error(messages.labelsParse(where, 1, `missing column "${need}"`));
  }
  return rows.map((r, i) => build(where, i + 2, Object.fromEntries(cols.map((c, j) => [c, r[j] ?? '']))));
}

export async function loadHumanLabels(path: string): Promise<HumanLabel[]> {
  const format = path.endsWith('.csv') ? 'csv' : path.endsWith('.jsonl') || path.endsWith('.ndjson') ? 'jsonl' : null;
  if (!format) throw new Error(messages.labelsFormat(path));
  return parseHumanLabels(await readFile(path, 'utf8'), format, path);
}
