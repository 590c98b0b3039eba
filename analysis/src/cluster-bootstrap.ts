// Cluster bootstrap of a ratio of sums: each cluster (a task, a project) carries
// the sum of its observations and their count, and a resample draws whole
// clusters with replacement, so all trials of a task move together. The
// statistic is sum(sums)/sum(counts): the pooled mean over all observations.
// With one observation per cluster (count 1) it is the plain mean, which is what
// SciPy's `scipy.stats.bootstrap` resamples; with unequal counts it is SciPy's
// paired bootstrap of (sums, counts) with statistic sum(s)/sum(c).
// Intervals: percentile, and BCa (bias-corrected and accelerated, Efron 1987)
// with a jackknife over clusters, following SciPy's conventions exactly.
import { normCdf, normPpf, quantileSorted } from './numeric.js';
import { createRng, DEFAULT_SEED } from './seeded-rng.js';

export const DEFAULT_RESAMPLES = 10_000;
export const DEFAULT_CONFIDENCE = 0.95;

export interface BootstrapOptions {
  resamples?: number;
  confidence?: number;
  seed?: number;
  /** Also return the sorted bootstrap distribution (e.g. for Monte Carlo error or plots). */
  keepDistribution?: boolean;
}

export interface Interval {
  low: number;
  high: number;
}

export interface BootstrapResult {
  /** sum(sums)/sum(counts) on the data; null when there is no observation. */
  estimate: number | null;
  percentile: Interval | null;
  bca: Interval | null;
  /** Standard deviation of the bootstrap distribution. */
  standardError: number | null;
  clusters: number;
  observations: number;
  resamples: number;
  confidence: number;
  seed: number;
  /** BCa bias correction z0 and acceleration a (diagnostics). */
  z0: number | null;
  acceleration: number | null;
  /** Quantile levels of the bootstrap distribution used as BCa endpoints. */
  bcaLevels: Interval | null;
  /** Sorted bootstrap statistics, when `keepDistribution` was set. */
  distribution?: Float64Array;
}

export interface ClusterData {
  sums: readonly number[];
  counts: readonly number[];
}

/** Clusters from per-cluster observation lists; empty clusters are dropped (they carry no information). */
export function clustersFrom(groups: readonly (readonly number[])[]): ClusterData {
  const sums: number[] = [];
  const counts: number[] = [];
  for (const g of groups) {
    if (g.length === 0) continue;
    let s = 0;
    for (const x of g) s += x;
    sums.push(s);
    counts.push(g.length);
  }
  return { sums, counts };
}

/**
 * Monte Carlo standard error of the level-p quantile of a sorted bootstrap
 * distribution: sqrt(p(1-p)/B) / density, the density estimated from the spread of
 * nearby order statistics.
 */
export function quantileMcError(sorted: Float64Array, p: number): number {
  const B = sorted.length;
  const h = Math.max(0.005, Math.min(0.02, p / 2, (1 - p) / 2));
  const spread = (quantileSorted(sorted, Math.min(1, p + h)) - quantileSorted(sorted, Math.max(0, p - h))) / (2 * h);
  return Math.sqrt((p * (1 - p)) / B) * spread;
}

export function clusterBootstrap(data: ClusterData, options: BootstrapOptions = {}): BootstrapResult {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  const seed = options.seed ?? DEFAULT_SEED;
  if (data.sums.length !== data.counts.length)
    throw new RangeError('clusterBootstrap: sums and counts differ in length');
  // Clusters without observations cannot be drawn meaningfully.
  const sums: number[] = [];
  const counts: number[] = [];
  data.sums.forEach((s, i) => {
    const c = data.counts[i] as number;
    if (c > 0) {
      sums.push(s);
      counts.push(c);
    }
  });
  const n = sums.length;
  const totalSum = sums.reduce((a, b) => a + b, 0);
  const totalCount = counts.reduce((a, b) => a + b, 0);
  const base = { clusters: n, observations: totalCount, resamples, confidence, seed };
  if (n === 0)
    return {
      ...base,
      estimate: null,
      percentile: null,
      bca: null,
      standardError: null,
      z0: null,
      acceleration: null,
      bcaLevels: null,
    };
  const estimate = totalSum / totalCount;

  const rng = createRng(seed);
  const S = Float64Array.from(sums);
  const C = Float64Array.from(counts);
  const dist = new Float64Array(resamples);
  const idx = new Uint32Array(n);
  for (let b = 0; b < resamples; b++) {
    rng.fillInts(n, idx);
    let s = 0;
    let c = 0;
    for (let k = 0; k < n; k++) {
      const j = idx[k] as number;
      s += S[j] as number;
      c += C[j] as number;
    }
    dist[b] = s / c;
  }
  let m = 0;
  for (let b = 0; b < resamples; b++) m += dist[b] as number;
  m /= resamples;
  let v = 0;
  for (let b = 0; b < resamples; b++) v += ((dist[b] as number) - m) ** 2;
  const standardError = resamples > 1 ? Math.sqrt(v / (resamples - 1)) : 0;

  const sorted = Float64Array.from(dist).sort();
  const alpha = (1 - confidence) / 2;
  const percentile = { low: quantileSorted(sorted, alpha), high: quantileSorted(sorted, 1 - alpha) };

  // BCa. z0 from the mid-rank share of resamples below the estimate (SciPy's _percentile_of_score).
  let below = 0;
  let atOrBelow = 0;
  for (let b = 0; b < resamples; b++) {
    const x = dist[b] as number;
    if (x < estimate) below++;
    if (x <= estimate) atOrBelow++;
  }
  const z0 = normPpf((below + atOrBelow) / (2 * resamples));
  const acceleration = jackknifeAcceleration(sums, counts, totalSum, totalCount);
  const bcaLevel = (zAlpha: number): number => {
    const num = z0 + zAlpha;
    return normCdf(z0 + num / (1 - acceleration * num));
  };
  const zLow = normPpf(alpha);
  const zHigh = normPpf(1 - alpha);
  const lowLevel = bcaLevel(zLow);
  const highLevel = bcaLevel(zHigh);
  const defined = Number.isFinite(z0) && Number.isFinite(lowLevel) && Number.isFinite(highLevel);
  const bca = defined ? { low: quantileSorted(sorted, lowLevel), high: quantileSorted(sorted, highLevel) } : null;
  return {
    ...base,
    estimate,
    percentile,
    bca,
    standardError,
    z0: Number.isFinite(z0) ? z0 : null,
    acceleration,
    bcaLevels: defined ? { low: lowLevel, high: highLevel } : null,
    ...(options.keepDistribution ? { distribution: sorted } : {}),
  };
}

/** Jackknife acceleration over clusters (leave one cluster out); 0 when undefined (n < 2 or no spread). */
function jackknifeAcceleration(
  sums: readonly number[],
  counts: readonly number[],
  totalSum: number,
  totalCount: number,
): number {
  const n = sums.length;
  if (n < 2) return 0;
  const theta = new Float64Array(n);
  let thetaDot = 0;
  for (let i = 0; i < n; i++) {
    theta[i] = (totalSum - (sums[i] as number)) / (totalCount - (counts[i] as number));
    thetaDot += theta[i] as number;
  }
  thetaDot /= n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    const d = thetaDot - (theta[i] as number);
    num += d ** 3;
    den += d ** 2;
  }
  if (den === 0) return 0;
  return num / (6 * den ** 1.5);
}
