// How numbers read in the report's sentences: fixed digits, and a dash for a value not computed (never "null"
// or "NaN" in prose).
export const f1 = (x: unknown): string => (typeof x === 'number' ? x.toFixed(1) : '—');
export const f2 = (x: unknown): string => (typeof x === 'number' ? x.toFixed(2) : '—');
export const ci = (lo: unknown, hi: unknown): string => `[${f1(lo)}, ${f1(hi)}]`;
