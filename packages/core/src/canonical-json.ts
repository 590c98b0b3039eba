// JSON with keys in order, so a digest does not depend on how a file orders its fields; and the digest of one
// rubric item's or criterion's fields as a unit version keeps them (what a review records of the item it saw).
// Not in `@assay/core/pure`: node:crypto stays out of workflow bundles.
import { createHash } from 'node:crypto';

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const digestJson = (value: unknown): string => createHash('sha256').update(canonicalJson(value)).digest('hex');

/** An item's content digest from its fields in a unit version (`UnitVersion['items'][id]`). */
export const itemDigestOf = (fields: Readonly<Record<string, string>>): string => digestJson(fields);

/** Each item's digest of one unit as the job lock has it now (`tasks/<id>`), or null without a lock or that unit. */
export function lockedItemDigests(
  lock: { units: Record<string, { items: Record<string, Record<string, string>> }> } | null,
  unit: string,
): Record<string, string> | null {
  const items = lock?.units[unit]?.items;
  return items ? Object.fromEntries(Object.entries(items).map(([id, fields]) => [id, itemDigestOf(fields)])) : null;
}
