import { str, type Raw } from './loose.js';
import type { Declared } from './validate-check.js';

/** Deliverable paths with the formats they are declared with, from `outputs`, `deliverables` or `finalPackage` lists. */
export function declaredOutputs(lists: readonly (readonly { item: Raw }[])[]): Declared {
  const out = new Map<string, Set<string>>();
  for (const entries of lists)
    for (const { item } of entries) {
      const path = str(item.path);
      if (path === undefined) continue;
      const formats = out.get(path) ?? new Set<string>();
      const format = str(item.format);
      if (format !== undefined) formats.add(format);
      out.set(path, formats);
    }
  return out;
}
