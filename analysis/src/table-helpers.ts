// Small glue between arquero tables and the statistics, which work on arrays.
import * as aq from 'arquero';
import type { ColumnTable } from 'arquero';

export type Row = Record<string, unknown>;

/** Rows of a table as plain objects, typed by the caller. */
export function rowsOf<T = Row>(t: ColumnTable): T[] {
  return t.objects() as T[];
}

/** A table from rows, with the given column order even when there are no rows. */
export function tableOf(rows: readonly object[], columns: readonly string[]): ColumnTable {
  if (rows.length > 0) return aq.from(rows as Row[]).select([...columns]);
  return aq.table(Object.fromEntries(columns.map((c) => [c, []])));
}

/** Group rows by a key into a Map, preserving first-seen order. */
export function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = out.get(k);
    if (list) list.push(it);
    else out.set(k, [it]);
  }
  return out;
}

export function isNum(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}

/** Mean of finite values, or null. */
export function meanOf(xs: readonly unknown[]): number | null {
  const v = xs.filter(isNum);
  return v.length === 0 ? null : v.reduce((a, b) => a + b, 0) / v.length;
}

/** Sum of one number per item, in order (so a float total is the same wherever it is taken). */
export function sumOf<T>(items: readonly T[], value: (t: T) => number): number {
  return items.reduce((a, t) => a + value(t), 0);
}

/** An interval as the table columns `<name>_low` and `<name>_high`, null when there is none. */
export function intervalColumns(
  name: string,
  interval: { low: number; high: number } | null | undefined,
): Record<string, number | null> {
  return { [`${name}_low`]: interval?.low ?? null, [`${name}_high`]: interval?.high ?? null };
}
