import { existsSync } from 'node:fs';
import { strings } from './loose.js';
import { messages } from './messages.js';
import { resolveInside } from './paths.js';
import type { YamlFile } from './yaml-file.js';

/** Every file listed under `reference:` exists inside the evaluator's reference folder. */
export function checkReferenceFiles(
  file: YamlFile,
  root: string,
  refDir: string,
  labelOf: (p: string) => string,
): void {
  const raw = file.raw as Record<string, unknown>;
  for (const { value, index } of strings(raw.reference)) {
    const abs = resolveInside(root, refDir, value);
    if (abs === null) file.report(['reference', index], messages.escapes(value));
    else if (!existsSync(abs)) file.report(['reference', index], messages.missingFile(labelOf(abs)));
  }
}
