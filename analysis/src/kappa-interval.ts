// A bootstrap interval for Cohen's kappa: labelled items resampled with replacement (each item a pair of
// decisions), kappa recomputed on each resample, the percentile interval of those that define one. Items, not
// tasks, are the unit: agreement is a property of single decisions, and a labelled sample often covers few
// tasks. Seeded, so the viewer and the report print the same interval for the same labels.
import { kappaOfTable } from './cohen-kappa.js';
import { DEFAULT_CONFIDENCE } from './cluster-bootstrap.js';
import { quantileSorted } from './numeric.js';
import { createRng, DEFAULT_SEED } from './seeded-rng.js';

const KAPPA_RESAMPLES = 2_000;

export interface KappaIntervalOptions {
  resamples?: number;
  confidence?: number;
  seed?: number;
}

/** The interval, or null with fewer than 2 pairs or when no resample defines kappa (both raters constant). */
export function kappaInterval(
  a: readonly boolean[],
  b: readonly boolean[],
  options: KappaIntervalOptions = {},
): { low: number; high: number } | null {
  const n = a.length;
  if (n !== b.length) throw new RangeError('kappaInterval: raters differ in length');
  if (n < 2) return null;
  const resamples = options.resamples ?? KAPPA_RESAMPLES;
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  const rng = createRng(options.seed ?? DEFAULT_SEED);
  // The four cells per item, so a resample only counts.
  const cell = Uint8Array.from({ length: n }, (_, i) => (a[i] ? 2 : 0) + (b[i] ? 1 : 0));
  const draws = new Uint32Array(n);
  const kappas: number[] = [];
  for (let r = 0; r < resamples; r++) {
    rng.fillInts(n, draws);
    const counts = [0, 0, 0, 0];
    for (const d of draws) counts[cell[d]!]!++;
    const [both0, bOnly, aOnly, both1] = counts as [number, number, number, number];
    const k = kappaOfTable({ both1, aOnly, bOnly, both0 });
    if (k !== null) kappas.push(k);
  }
  if (kappas.length === 0) return null;
  kappas.sort((x, y) => x - y);
  const tail = (1 - confidence) / 2;
  return { low: quantileSorted(kappas, tail), high: quantileSorted(kappas, 1 - tail) };
}
