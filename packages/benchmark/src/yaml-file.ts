// One YAML file of a benchmark or job: its data as written, and every problem found in it reported
// at the field a person wrote (named by ids, see nameField) with the line and column the parser gives.
import { lstatSync, readFileSync, statSync, type Stats } from 'node:fs';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { refusalOf } from './benchmark-files.js';
import { decodeUtf8 } from './decode-text.js';
import { FILE_LIMITS } from './file-limits.js';
import { maskKeys } from '@assay/core';
import { errorText } from './error-text.js';
import { nameField, type Issue } from './issue.js';
import { messages } from './messages.js';

export interface ReportOptions {
  /** Name the field by this path instead (e.g. `dependsOn` while the position is of one entry). */
  name?: readonly PropertyKey[];
  /** Nothing else is reported at this field, not even a schema problem (a secret: one line that says what to do). */
  settles?: boolean;
}

const within = (field: string, fields: readonly string[]) =>
  fields.some((f) => field === f || field.startsWith(`${f}.`) || field.startsWith(`${f}[`));

export class YamlFile {
  /** Fields (as named) with a schema problem: reference checks do not report them a second time. */
  private readonly schemaFields: string[] = [];
  /** Fields reported with `settles`: the schema does not report them either. */
  private readonly settledFields: string[] = [];
  /** Values that must never appear in an issue (they look like secrets). */
  private readonly hidden: string[] = [];

  constructor(
    readonly label: string,
    /** The file's data as parsed, before any schema: what reference checks read, leniently. */
    readonly raw: unknown,
    private readonly doc: Document,
    private readonly lines: LineCounter,
    private readonly issues: Issue[],
  ) {}

  /** Line and column (1-based) of the deepest node along `path` that the file has (none for the file as a whole). */
  position(path: readonly PropertyKey[]): { line: number; column: number } | undefined {
    let node: unknown = this.doc.contents;
    let offset: number | undefined;
    for (const part of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(part));
        if (!pair) break;
        offset = rangeStart(pair.key) ?? offset;
        node = pair.value;
      } else if (isSeq(node) && typeof part === 'number') {
        node = node.items[part];
        offset = rangeStart(node) ?? offset;
      } else break;
    }
    if (offset === undefined) return undefined;
    const { line, col } = this.lines.linePos(offset);
    return { line, column: col };
  }

  /** How a field is named in issues: list elements by their id (see nameField). */
  fieldName(path: readonly PropertyKey[]): string {
    return nameField(path, this.raw);
  }

  /** Never show these values in an issue: every field name and reason is masked before it is kept. */
  hide(values: readonly string[]): void {
    this.hidden.push(...values.filter((v) => v.length > 0));
  }

  private mask(text: string): string {
    return this.hidden.reduce((out, secret) => {
      // A short literal (`token: a`) is masked as a whole word only: every "a" in the sentence would go too.
      if (secret.length >= 8) return out.split(secret).join(messages.masked);
      const word = new RegExp(`(?<![A-Za-z0-9])${secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9])`, 'g');
      return out.replace(word, messages.masked);
    }, text);
  }

  report(path: readonly PropertyKey[], reason: string, opts: ReportOptions = {}): void {
    const field = this.fieldName(opts.name ?? path);
    if (within(field, this.schemaFields) || within(field, this.settledFields)) return;
    this.issues.push({ file: this.label, field: this.mask(field), reason: this.mask(reason), ...this.position(path) });
    if (opts.settles) this.settledFields.push(field);
  }

  /** Schema-check the data; every problem is reported, and the typed data returned only when there is none. */
  validate<T extends z.ZodType>(schema: T): z.infer<T> | null {
    const parsed = schema.safeParse(this.raw);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        // Name each unknown key as the field, so the message points at the line to fix.
        for (const key of issue.keys) this.reportSchema([...issue.path, key], messages.unknownField);
      } else {
        const missing = issue.code === 'invalid_type' && valueAt(this.raw, issue.path) === undefined;
        this.reportSchema(issue.path, missing ? messages.missingField(issue.message) : issue.message);
      }
    }
    return null;
  }

  private reportSchema(path: readonly PropertyKey[], reason: string): void {
    const field = this.fieldName(path);
    if (within(field, this.settledFields)) return;
    this.issues.push({ file: this.label, field: this.mask(field), reason: this.mask(reason), ...this.position(path) });
    this.schemaFields.push(field);
  }
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
  return range?.[0];
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let here = raw;
  for (const part of path) {
    if (here === null || typeof here !== 'object') return undefined;
    here = (here as Record<PropertyKey, unknown>)[part];
  }
  return here;
}

export interface ReadOptions {
  /** Refuse a symbolic link or a hard link too (benchmark files; a job file may be a link). */
  regularOnly?: boolean;
}

/** The file's text, or why it cannot be a YAML file: missing, a folder, special, too big, not UTF-8. */
function readYamlText(file: string, opts: ReadOptions): { text: string } | { problem: string } {
  let st: Stats;
  try {
    st = opts.regularOnly ? lstatSync(file) : statSync(file);
  } catch {
    return { problem: messages.fileMissing };
  }
  const refused = opts.regularOnly ? refusalOf(file, st) : null;
  if (refused !== null) return { problem: refused };
  if (st.isDirectory()) return { problem: messages.folderNotYaml };
  if (!st.isFile()) return { problem: messages.notARegularFile };
  if (st.size > FILE_LIMITS.yamlBytes) return { problem: messages.yamlTooBig(st.size, FILE_LIMITS.yamlBytes) };
  try {
    return decodeUtf8(readFileSync(file));
  } catch (err) {
    return { problem: messages.cannotRead(errorText(err)) };
  }
}

/** The document's data; aliases expanded at most FILE_LIMITS.aliases times (an alias bomb is an issue, not a hang). */
function toData(doc: Document): { raw: unknown } | { problem: string } {
  try {
    return { raw: doc.toJS({ maxAliasCount: FILE_LIMITS.aliases }) };
  } catch (err) {
    const reason = err instanceof ReferenceError ? messages.aliasBomb(FILE_LIMITS.aliases) : null;
    return { problem: reason ?? messages.cannotRead(errorText(err)) };
  }
}

/** Read one YAML file; a file that cannot be read, a syntax error or a non-mapping is reported and gives null. */
export function readYamlFile(file: string, label: string, issues: Issue[], opts: ReadOptions = {}): YamlFile | null {
  const problem = (reason: string): null => {
    issues.push({ file: label, field: '', reason });
    return null;
  };
  const read = readYamlText(file, opts);
  if ('problem' in read) return problem(read.problem);
  const lines = new LineCounter();
  const doc = parseDocument(read.text, { prettyErrors: true, uniqueKeys: true, lineCounter: lines });
  if (doc.errors.length > 0) {
    for (const err of doc.errors) {
      const pos = err.linePos?.[0];
      issues.push({
        file: label,
        field: pos ? `line ${pos.line}` : '',
        // The parser may quote the source; a key in it is masked before the issue is kept.
        reason: messages.yamlSyntax(maskKeys(err.message.split('\n')[0] ?? err.code, messages.masked)),
        ...(pos ? { line: pos.line, column: pos.col } : {}),
      });
    }
    return null;
  }
  const data = toData(doc);
  if ('problem' in data) return problem(data.problem);
  const raw = data.raw;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return problem(messages.notAnObject);
  return new YamlFile(label, raw, doc, lines, issues);
}
