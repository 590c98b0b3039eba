// McNemar's test for paired binary outcomes (success of system A vs B on the same
// task and trial): only discordant pairs carry information.
import { erfc } from './numeric.js';

export interface McNemarResult {
  /** A succeeded, B failed. */
  aOnly: number;
  /** B succeeded, A failed. */
  bOnly: number;
  pairs: number;
  /** Exact two-sided binomial p-value on the discordant pairs. */
  pExact: number;
  /** Chi-square with continuity correction, and its p-value (df = 1). */
  chi2: number;
  pChi2: number;
}

export function mcnemarTest(a: readonly boolean[], b: readonly boolean[]): McNemarResult {
  if (a.length !== b.length) throw new RangeError('mcnemarTest: outcome lists differ in length');
  let aOnly = 0;
  let bOnly = 0;
  a.forEach((x, i) => {
    const y = b[i] as boolean;
    if (x && !y) aOnly++;
    if (!x && y) bOnly++;
  });
  const d = aOnly + bOnly;
  const pExact = d === 0 ? 1 : Math.min(1, 2 * binomCdf(Math.min(aOnly, bOnly), d));
  const chi2 = d === 0 ? 0 : Math.max(0, Math.abs(aOnly - bOnly) - 1) ** 2 / d;
  const pChi2 = d === 0 ? 1 : erfc(Math.sqrt(chi2 / 2));
  return { aOnly, bOnly, pairs: a.length, pExact, chi2, pChi2 };
}

/** P(X <= k) for X ~ Binomial(n, 1/2), in log space so large n cannot underflow. */
function binomCdf(k: number, n: number): number {
  const logFact = [0];
  for (let i = 1; i <= n; i++) logFact.push((logFact[i - 1] as number) + Math.log(i));
  const lf = (i: number): number => logFact[i] as number;
  let total = 0;
  for (let i = 0; i <= k; i++) total += Math.exp(lf(n) - lf(i) - lf(n - i) - n * Math.LN2);
  return total;
}
