// One YAML file of a benchmark or job: its data as written, and every problem found in it reported
// at the field a person wrote (named by ids, see nameField) with the line and column the parser gives.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { nameField, type Issue } from './issue.js';
import { messages } from './messages.js';

export interface ReportOptions {
  /** Name the field by this path instead (e.g. `dependsOn` while the position is of one entry). */
  name?: readonly PropertyKey[];
}

export class YamlFile {
  /** Fields (as named) with a schema problem: reference checks do not report them a second time. */
  private readonly schemaFields: string[] = [];

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

  report(path: readonly PropertyKey[], reason: string, opts: ReportOptions = {}): void {
    const field = this.fieldName(opts.name ?? path);
    const shadowed = this.schemaFields.some(
      (f) => field === f || field.startsWith(`${f}.`) || field.startsWith(`${f}[`),
    );
    if (shadowed) return;
    this.issues.push({ file: this.label, field, reason, ...this.position(path) });
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
    this.issues.push({ file: this.label, field, reason, ...this.position(path) });
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

/** Read one YAML file; a missing file or a syntax error is reported and gives null. */
export function readYamlFile(file: string, label: string, issues: Issue[]): YamlFile | null {
  if (!existsSync(file) || !statSync(file).isFile()) {
    issues.push({ file: label, field: '', reason: messages.fileMissing });
    return null;
  }
  const lines = new LineCounter();
  const doc = parseDocument(readFileSync(file, 'utf8'), { prettyErrors: true, uniqueKeys: true, lineCounter: lines });
  if (doc.errors.length > 0) {
    for (const err of doc.errors) {
      const pos = err.linePos?.[0];
      issues.push({
        file: label,
        field: pos ? `line ${pos.line}` : '',
        reason: messages.yamlSyntax(err.message.split('\n')[0] ?? err.code),
        ...(pos ? { line: pos.line, column: pos.col } : {}),
      });
    }
    return null;
  }
  const raw: unknown = doc.toJS();
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    issues.push({ file: label, field: '', reason: messages.notAnObject });
    return null;
  }
  return new YamlFile(label, raw, doc, lines, issues);
}
