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
  const { sums, counts } = dropEmptyClusters(data);
  const totalSum = sums.reduce((a, b) => a + b, 0);
  const totalCount = counts.reduce((a, b) => a + b, 0);
  const base = { clusters: sums.length, observations: totalCount, resamples, confidence, seed };
  if (sums.length === 0)
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
  const dist = resampleRatios(sums, counts, resamples, seed);
  const sorted = Float64Array.from(dist).sort();
  const alpha = (1 - confidence) / 2;
  const z0 = biasCorrection(dist, estimate);
  const acceleration = jackknifeAcceleration(sums, counts, totalSum, totalCount);
  const bcaLevels = bcaLevelsOf(z0, acceleration, alpha);
  return {
    ...base,
    estimate,
    percentile: { low: quantileSorted(sorted, alpha), high: quantileSorted(sorted, 1 - alpha) },
    bca: bcaLevels && { low: quantileSorted(sorted, bcaLevels.low), high: quantileSorted(sorted, bcaLevels.high) },
    standardError: standardErrorOf(dist),
    z0: Number.isFinite(z0) ? z0 : null,
    acceleration,
    bcaLevels,
    ...(options.keepDistribution ? { distribution: sorted } : {}),
  };
}

/** Clusters without observations cannot be drawn meaningfully. */
function dropEmptyClusters(data: ClusterData): { sums: number[]; counts: number[] } {
  if (data.sums.length !== data.counts.length)
    throw new RangeError('clusterBootstrap: sums and counts differ in length');
  const sums: number[] = [];
  const counts: number[] = [];
  data.sums.forEach((s, i) => {
    const c = data.counts[i] as number;
    if (c > 0) {
      sums.push(s);
      counts.push(c);
    }
  });
  return { sums, counts };
}

/** The statistic on each resample, in draw order: one `fillInts` of n cluster indices per resample. */
function resampleRatios(
  sums: readonly number[],
  counts: readonly number[],
  resamples: number,
  seed: number,
): Float64Array {
  const n = sums.length;
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
  return dist;
}

/** Sample standard deviation (n − 1); 0 with fewer than two resamples. */
function standardErrorOf(dist: Float64Array): number {
  const resamples = dist.length;
  let m = 0;
  for (let b = 0; b < resamples; b++) m += dist[b] as number;
  m /= resamples;
  let v = 0;
  for (let b = 0; b < resamples; b++) v += ((dist[b] as number) - m) ** 2;
  return resamples > 1 ? Math.sqrt(v / (resamples - 1)) : 0;
}

/** BCa z0 from the mid-rank share of resamples below the estimate (SciPy's _percentile_of_score). */
function biasCorrection(dist: Float64Array, estimate: number): number {
  let below = 0;
  let atOrBelow = 0;
  for (let b = 0; b < dist.length; b++) {
    const x = dist[b] as number;
    if (x < estimate) below++;
    if (x <= estimate) atOrBelow++;
  }
  return normPpf((below + atOrBelow) / (2 * dist.length));
}

/** Quantile levels of the BCa endpoints; null when z0 or a level is not finite. */
function bcaLevelsOf(z0: number, acceleration: number, alpha: number): Interval | null {
  const bcaLevel = (zAlpha: number): number => {
    const num = z0 + zAlpha;
    return normCdf(z0 + num / (1 - acceleration * num));
  };
  const low = bcaLevel(normPpf(alpha));
  const high = bcaLevel(normPpf(1 - alpha));
  return Number.isFinite(z0) && Number.isFinite(low) && Number.isFinite(high) ? { low, high } : null;
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
