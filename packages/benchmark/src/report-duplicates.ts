import { messages } from './messages.js';
import type { Path } from './loose.js';
import type { YamlFile } from './yaml-file.js';

/** Report each repeated id at its own place, naming where it first appeared. */
export function reportDuplicates(file: YamlFile, entries: readonly { id: string; at: Path }[], kind: string): void {
  const first = new Map<string, Path>();
  for (const { id, at } of entries) {
    const seen = first.get(id);
    if (seen) file.report(at, messages.duplicateId(kind, id, file.fieldName(seen)));
    else first.set(id, at);
  }
}
