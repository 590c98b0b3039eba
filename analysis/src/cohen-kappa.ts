// Agreement of two binary raters (judge vs human expert, or judge setup A vs B):
// raw agreement and Cohen's kappa, which discounts agreement expected by chance.

export interface Agreement {
  n: number;
  agree: number;
  /** Share of matching decisions, 0–1; null when n = 0. */
  raw: number | null;
  /** Cohen's kappa; null when undefined (n = 0, or both raters constant and equal). */
  kappa: number | null;
  /** Counts: both 1, a=1 b=0, a=0 b=1, both 0. */
  table: { both1: number; aOnly: number; bOnly: number; both0: number };
}

export function cohenKappa(a: readonly boolean[], b: readonly boolean[]): Agreement {
  if (a.length !== b.length) throw new RangeError('cohenKappa: raters differ in length');
  let both1 = 0;
  let aOnly = 0;
  let bOnly = 0;
  let both0 = 0;
  a.forEach((x, i) => {
    const y = b[i] as boolean;
    if (x && y) both1++;
    else if (x) aOnly++;
    else if (y) bOnly++;
    else both0++;
  });
  const n = a.length;
  const table = { both1, aOnly, bOnly, both0 };
  if (n === 0) return { n, agree: 0, raw: null, kappa: null, table };
  const agree = both1 + both0;
  return { n, agree, raw: agree / n, kappa: kappaOfTable(table), table };
}

/** Kappa from the four counts (null when there are none, or chance agreement is 1). */
export function kappaOfTable({ both1, aOnly, bOnly, both0 }: Agreement['table']): number | null {
  const n = both1 + aOnly + bOnly + both0;
  if (n === 0) return null;
  const po = (both1 + both0) / n;
  const pa1 = (both1 + aOnly) / n;
  const pb1 = (both1 + bOnly) / n;
  const pe = pa1 * pb1 + (1 - pa1) * (1 - pb1);
  return pe === 1 ? null : (po - pe) / (1 - pe);
}
