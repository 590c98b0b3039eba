// Expert labels from a file, as the table judge agreement reads (columns system, unit, trial, item, scope,
// human 1/0). Two formats, by the file's name: JSON Lines (`.jsonl`, one object per line) or CSV with a header.
// Fields: system; unit = task or project id; trial (a positive integer); item = rubric item or criterion id;
// scope = empty/absent for a task's rubric item, `final` or a subtask id for a project criterion; label = 1/0,
// true/false, satisfied/not-satisfied, met/not-met, yes/no. The first bad line is named by file, line and field.
import { readFile } from 'node:fs/promises';
import type { ColumnTable } from 'arquero';
import { messages } from './messages.js';
import { parseCsv } from './parse-csv.js';
import { tableOf } from './table-helpers.js';

const REQUIRED = ['system', 'unit', 'trial', 'item', 'label'] as const;

export async function loadHumanLabels(file: string): Promise<ColumnTable> {
  const text = await readFile(file, 'utf8');
  const records = file.toLowerCase().endsWith('.jsonl') ? jsonLines(file, text) : csvLines(file, text);
  const rows = records.map(({ line, rec }) => labelRow(file, line, rec));
  return tableOf(rows, ['system', 'unit', 'trial', 'item', 'scope', 'human']);
}

type Line = { line: number; rec: Record<string, unknown> };

function csvLines(file: string, text: string): Line[] {
  const lines = parseCsv(text);
  const header = (lines[0] ?? []).map((h) => h.trim());
  for (const col of REQUIRED)
    if (!header.includes(col)) throw new Error(messages.labelsInvalid(file, 1, `missing column "${col}"`));
  return lines.slice(1).map((cells, i) => ({
    line: i + 2,
    rec: Object.fromEntries(header.map((h, j) => [h, (cells[j] ?? '').trim()])),
  }));
}

function jsonLines(file: string, text: string): Line[] {
  return text.split('\n').flatMap((raw, i) => {
    if (raw.trim() === '') return [];
    let rec: unknown;
    try {
      rec = JSON.parse(raw);
    } catch (err) {
      throw new Error(messages.labelsInvalid(file, i + 1, `not JSON (${(err as Error).message})`));
    }
    if (!rec || typeof rec !== 'object' || Array.isArray(rec))
      throw new Error(messages.labelsInvalid(file, i + 1, 'not a JSON object'));
    return [{ line: i + 1, rec: rec as Record<string, unknown> }];
  });
}

function labelRow(file: string, line: number, rec: Record<string, unknown>) {
  const bad = (field: string, why: string) => new Error(messages.labelsInvalid(file, line, `${field}: ${why}`));
  const text = (field: string): string => {
    const v = rec[field];
    if (typeof v !== 'string' || v.trim() === '') throw bad(field, 'missing or empty');
    return v.trim();
  };
  const trial = typeof rec.trial === 'number' ? rec.trial : Number(String(rec.trial ?? '').trim() || Number.NaN);
  if (!Number.isInteger(trial) || trial < 1) throw bad('trial', `"${String(rec.trial)}" is not a positive integer`);
  const human = parseLabel(rec.label);
  if (human === null)
    throw bad('label', `"${String(rec.label)}" is not 1/0, true/false, satisfied/not-satisfied or met/not-met`);
  const scope = rec.scope === undefined || rec.scope === null ? '' : String(rec.scope).trim();
  return { system: text('system'), unit: text('unit'), trial, item: text('item'), scope: scope || null, human };
}

function parseLabel(value: unknown): 0 | 1 | null {
  if (value === true || value === 1) return 1;
  if (value === false || value === 0) return 0;
  const v = String(value ?? '').toLowerCase();
  if (['1', 'true', 'satisfied', 'met', 'yes'].includes(v)) return 1;
  if (['0', 'false', 'not-satisfied', 'not-met', 'no'].includes(v)) return 0;
  return null;
}
