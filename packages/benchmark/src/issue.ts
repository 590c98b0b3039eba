import { messages } from './messages.js';

/** One problem in a benchmark or job file, reported as `file:field: reason`. */
export interface Issue {
  file: string;
  field: string;
  reason: string;
}

export function formatIssue(issue: Issue): string {
  return `${issue.file}:${issue.field || '(file)'}: ${issue.reason}`;
}

/** Render a zod issue path as `items[3].check.path`. */
export function fieldOf(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/** Report each repeated id at its position. */
export function reportDuplicates(
  ids: readonly string[],
  kind: string,
  file: string,
  field: string,
  issues: Issue[],
): void {
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    if (seen.has(id)) issues.push({ file, field: `${field}[${i}]`, reason: messages.duplicateId(kind, id) });
    seen.add(id);
  });
}

/** Thrown by loaders when a file cannot be used; carries every issue found. */
export class InvalidInputError extends Error {
  constructor(readonly issues: Issue[]) {
    super(issues.map(formatIssue).join('\n'));
    this.name = 'InvalidInputError';
  }
}
