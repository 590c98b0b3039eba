// Agent-visible material (a task's inputs, a project's releases) walked without following links:
// one issue per entry that is not a regular file or folder, about the entry itself and nothing below
// it, and the documented caps on file size, file count and depth.
import { lstatSync, readdirSync, type Stats } from 'node:fs';
import path from 'node:path';
import { refusalOf } from './benchmark-files.js';
import { errorText } from './error-text.js';
import { FILE_LIMITS } from './file-limits.js';
import type { Issue } from './issue.js';
import { messages } from './messages.js';

export interface TreeSummary {
  /** Bytes of the regular files found. */
  bytes: number;
  /** Absolute paths refused (and not walked into). */
  refused: string[];
}

function lstatOrNull(abs: string): Stats | null {
  try {
    return lstatSync(abs);
  } catch {
    return null;
  }
}

/**
 * Refuse `parent/name` itself when it is a link or a special file, reported as `<parent>:<name>`.
 * True when it may be used (also when it does not exist: the caller reports what is missing).
 */
export function acceptEntry(parent: string, name: string, labelOf: (p: string) => string, issues: Issue[]): boolean {
  const abs = path.join(parent, name);
  const st = lstatOrNull(abs);
  const reason = st ? refusalOf(abs, st) : null;
  if (reason !== null) issues.push({ file: labelOf(parent), field: name, reason });
  return reason === null;
}

/** Check the folder `name` under `parent` and everything in it; entries are reported as `<folder>:<relative path>`. */
export function inspectTree(
  parent: string,
  name: string,
  labelOf: (p: string) => string,
  issues: Issue[],
): TreeSummary {
  const dir = path.join(parent, name);
  const summary: TreeSummary = { bytes: 0, refused: [] };
  const st = lstatOrNull(dir);
  if (!st) return summary;
  if (!acceptEntry(parent, name, labelOf, issues)) {
    summary.refused.push(dir);
    return summary;
  }
  if (!st.isDirectory()) {
    issues.push({ file: labelOf(parent), field: name, reason: messages.notAFolder });
    return summary;
  }
  const label = labelOf(dir);
  const report = (abs: string, reason: string) => issues.push({ file: label, field: path.relative(dir, abs), reason });
  let files = 0;
  const visit = (abs: string, depth: number): void => {
    for (const entry of readdirSync(abs).sort()) {
      if (files > FILE_LIMITS.files) return;
      const child = path.join(abs, entry);
      const cst = lstatSync(child);
      const reason = refusalOf(child, cst);
      if (reason !== null) {
        report(child, reason);
        summary.refused.push(child);
      } else if (cst.isDirectory()) {
        if (depth <= FILE_LIMITS.depth) visit(child, depth + 1);
        else report(child, messages.tooDeep(FILE_LIMITS.depth));
      } else {
        files += 1;
        summary.bytes += cst.size;
        if (cst.size > FILE_LIMITS.fileBytes) report(child, messages.fileTooBig(cst.size, FILE_LIMITS.fileBytes));
      }
    }
  };
  try {
    visit(dir, 1);
  } catch (err) {
    issues.push({ file: labelOf(parent), field: name, reason: messages.cannotRead(errorText(err)) });
  }
  if (files > FILE_LIMITS.files)
    issues.push({ file: labelOf(parent), field: name, reason: messages.tooManyFiles(FILE_LIMITS.files) });
  return summary;
}
