// Small display helpers: null stays visible as "—", never 0.
export const num = (v: number | null | undefined, digits = 1): string =>
  v === null || v === undefined || Number.isNaN(v) ? '—' : v.toFixed(digits);

export const ci = (low: number | null | undefined, high: number | null | undefined): string =>
  low === null || low === undefined || high === null || high === undefined ? '' : `[${num(low)}, ${num(high)}]`;

export const signed = (w: number): string => (w > 0 ? `+${w}` : String(w));

export function decisionClass(decision: string): string {
  return decision === 'satisfied' ? 'ok' : decision === 'not-satisfied' ? 'bad' : 'none';
}
