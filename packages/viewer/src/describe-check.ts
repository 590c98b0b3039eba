// A rubric item's or criterion's check as the review queue shows it.

/** A check in one line: its kind, then its scalar settings. */
export function describeCheck(check: unknown): string | null {
  if (!check || typeof check !== 'object') return null;
  const { kind, ...rest } = check as Record<string, unknown>;
  const parts = Object.entries(rest)
    .filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v))
    .map(([k, v]) => `${k}: ${String(v)}`);
  return [String(kind ?? 'check'), ...parts].join(' · ');
}
