import { messages } from './messages.js';

/** One problem in a benchmark or job file, reported as `file:field: reason`. */
export interface Issue {
  file: string;
  /** Where in the file, by the ids a person wrote: `final[fa-total].dependsOn`, `stages[s1].releases[brief].path`. */
  field: string;
  reason: string;
  /** 1-based position of the field in the file, where the YAML parser gives one. */
  line?: number;
  column?: number;
}

/**
 * `file:field: reason`, with the position appended where the field is nested (`final[fa-total].dependsOn`):
 * a top-level key is found by its name alone, and a syntax error's field already is its line.
 */
export function formatIssue(issue: Issue): string {
  const nested = /[.[]/.test(issue.field);
  const at = issue.line !== undefined && nested ? ` (${messages.position(issue.line, issue.column)})` : '';
  return `${issue.file}:${issue.field || '(file)'}: ${issue.reason}${at}`;
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The name a list element goes by: its `id`, else its `path` (deliverables), when unique in its list. */
function elementName(list: readonly unknown[], index: number): string {
  for (const key of ['id', 'path']) {
    const own = list[index];
    const value = isRecord(own) ? own[key] : undefined;
    if (typeof value !== 'string' || value === '') continue;
    const same = list.filter((x) => isRecord(x) && x[key] === value).length;
    return same === 1 ? value : String(index);
  }
  return String(index);
}

/**
 * Render a path into `raw` (the file's data as parsed from YAML) with list elements named by the id a
 * person wrote — `final[fa-total].dependsOn` — falling back to the position where an element has no
 * unique id or path.
 */
export function nameField(path: readonly PropertyKey[], raw: unknown): string {
  let out = '';
  let here: unknown = raw;
  for (const part of path) {
    if (typeof part === 'number') {
      out += `[${Array.isArray(here) ? elementName(here, part) : part}]`;
      here = Array.isArray(here) ? here[part] : undefined;
    } else {
      out += out ? `.${String(part)}` : String(part);
      here = isRecord(here) ? here[String(part)] : undefined;
    }
  }
  return out;
}

/** Thrown by loaders when a file cannot be used; carries every issue found. */
export class InvalidInputError extends Error {
  constructor(readonly issues: Issue[]) {
    super(issues.map(formatIssue).join('\n'));
    this.name = 'InvalidInputError';
  }
}
