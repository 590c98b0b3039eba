import { existsSync, readFileSync, statSync } from 'node:fs';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { fieldOf, type Issue } from './issue.js';
import { messages } from './messages.js';

/** Read and schema-check one YAML file; every problem becomes an Issue naming file and field. */
export function readYamlFile<T extends z.ZodType>(
  file: string,
  label: string,
  schema: T,
  issues: Issue[],
): z.infer<T> | null {
  if (!existsSync(file) || !statSync(file).isFile()) {
    issues.push({ file: label, field: '', reason: messages.fileMissing });
    return null;
  }
  const doc = parseDocument(readFileSync(file, 'utf8'), { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    for (const err of doc.errors) {
      const line = err.linePos?.[0];
      issues.push({
        file: label,
        field: line ? `line ${line.line}` : '',
        reason: messages.yamlSyntax(err.message.split('\n')[0] ?? err.code),
      });
    }
    return null;
  }
  const data: unknown = doc.toJS();
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    issues.push({ file: label, field: '', reason: messages.notAnObject });
    return null;
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        // Name each unknown key as the field, so the message points at the line to fix.
        for (const key of issue.keys)
          issues.push({ file: label, field: fieldOf([...issue.path, key]), reason: 'is not a known field' });
      } else {
        issues.push({ file: label, field: fieldOf(issue.path), reason: issue.message });
      }
    }
    return null;
  }
  return parsed.data;
}
