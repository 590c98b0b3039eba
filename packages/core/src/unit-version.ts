// What one version of a unit (a task or a project) is made of, by content: a digest of the whole and of each
// part on its own (request, inputs, rubric, references; a project's timeline, releases and criteria; a Harbor
// task's files), and of each rubric item or criterion field by field, so two versions can be told apart by
// what changed ("item plan-present: importance core → auxiliary"), not only that something did.
// Built by @assay/benchmark from the files (digest-unit.ts); compared here, with no I/O.
import { z } from 'zod';

/** A field's value as kept: short vocabulary values as they are, anything else as `sha256:<hex>`. */
export const HASHED_PREFIX = 'sha256:';

export const unitVersionSchema = z.object({
  /** sha256 over the parts' digests: equal digests, same unit. */
  digest: z.string(),
  /** Each part's own sha256 (a missing part, e.g. no references, hashes the empty list). */
  parts: z.record(z.string(), z.string()),
  /** Rubric items (tasks) or criteria (projects, `subtask/criterion` and `final/criterion`), field by field. */
  items: z.record(z.string(), z.record(z.string(), z.string())),
});
export type UnitVersion = z.infer<typeof unitVersionSchema>;

/** What a record keeps of the version it was produced from (absent in records before it: "unknown"). */
export const unitPinSchema = z.object({ digest: z.string(), parts: z.record(z.string(), z.string()) });
export type UnitPin = z.infer<typeof unitPinSchema>;

export function pinOf(version: UnitVersion): UnitPin {
  return { digest: version.digest, parts: version.parts };
}

const show = (value: string | undefined): string =>
  value === undefined ? '(none)' : value.startsWith(HASHED_PREFIX) ? '' : value;

/** How an item's field changed: "check changed", "importance core → auxiliary", "check added". */
export function describeField(field: string, before: string | undefined, after: string | undefined): string {
  if (before === undefined) return `${field} added`;
  if (after === undefined) return `${field} removed`;
  if (before.startsWith(HASHED_PREFIX) || after.startsWith(HASHED_PREFIX)) return `${field} changed`;
  return `${field} ${show(before)} → ${show(after)}`;
}

/**
 * Every difference between two versions of one unit, one phrase each, parts before items:
 * `inputs changed`, `rubric item weakest-objective: check changed`, `item plan-present: importance core → auxiliary`.
 * Empty when the digests are equal.
 */
export function diffUnitVersions(before: UnitVersion, after: UnitVersion, itemNoun = 'rubric item'): string[] {
  if (before.digest === after.digest) return [];
  const out: string[] = [];
  const parts = [...new Set([...Object.keys(before.parts), ...Object.keys(after.parts)])];
  // The item-level part is described item by item below.
  for (const part of parts)
    if (part !== 'rubric' && part !== 'criteria' && before.parts[part] !== after.parts[part])
      out.push(before.parts[part] === undefined ? `${part} added` : `${part} changed`);
  let first = true;
  const ids = [...new Set([...Object.keys(before.items), ...Object.keys(after.items)])].sort();
  for (const id of ids) {
    const a = before.items[id];
    const b = after.items[id];
    const label = `${first ? itemNoun : 'item'} ${id}`;
    let phrase: string | null = null;
    if (!a) phrase = `${label} added`;
    else if (!b) phrase = `${label} removed`;
    else {
      const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((f) => a[f] !== b[f]);
      if (fields.length > 0) phrase = `${label}: ${fields.map((f) => describeField(f, a[f], b[f])).join(', ')}`;
    }
    if (phrase !== null) {
      out.push(phrase);
      first = false;
    }
  }
  // Only the order or the reference list moved: say the part changed rather than nothing.
  if (out.length === 0) {
    for (const part of ['rubric', 'criteria'])
      if (before.parts[part] !== after.parts[part]) out.push(`${part} changed (order or reference list)`);
  }
  return out;
}
