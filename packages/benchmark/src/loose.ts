// Lenient readers over a file's data as written, for the reference checks that run alongside the
// schema (so one pass reports both): a value of the wrong shape reads as absent, and the schema
// reports it.

export type Raw = Record<string, unknown>;
export type Path = readonly PropertyKey[];

export function rec(x: unknown): Raw | undefined {
  return typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Raw) : undefined;
}

export function list(x: unknown): unknown[] {
  return Array.isArray(x) ? x : [];
}

export function str(x: unknown): string | undefined {
  return typeof x === 'string' ? x : undefined;
}

export function num(x: unknown): number | undefined {
  return typeof x === 'number' && Number.isFinite(x) ? x : undefined;
}

/** The mapping elements of a list, with their positions. */
export function records(x: unknown): { item: Raw; index: number }[] {
  return list(x).flatMap((v, index) => {
    const item = rec(v);
    return item ? [{ item, index }] : [];
  });
}

/** The string elements of a list, with their positions. */
export function strings(x: unknown): { value: string; index: number }[] {
  return list(x).flatMap((v, index) => (typeof v === 'string' ? [{ value: v, index }] : []));
}
