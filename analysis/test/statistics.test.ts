// The statistics on small hand-checkable inputs.
import { describe, expect, it } from 'vitest';
import { clusterBootstrap, clustersFrom } from '../src/cluster-bootstrap.js';
import { cohenKappa } from '../src/cohen-kappa.js';
import { kendallTau } from '../src/kendall-tau.js';
import { mcnemarTest } from '../src/mcnemar-test.js';
import { normCdf, normPpf, quantileSorted, roundTo } from '../src/numeric.js';
import { holm } from '../src/paired-comparison.js';
import { createRng, deriveSeed } from '../src/seeded-rng.js';

describe('seeded RNG', () => {
  it('is deterministic per seed and uniform enough', () => {
    const a = createRng(42);
    const b = createRng(42);
    const c = createRng(43);
    const xa = Array.from({ length: 5 }, () => a.nextUint32());
    expect(Array.from({ length: 5 }, () => b.nextUint32())).toEqual(xa);
    expect(Array.from({ length: 5 }, () => c.nextUint32())).not.toEqual(xa);
    const r = createRng(1);
    const counts = new Array(10).fill(0);
    for (let i = 0; i < 100_000; i++) counts[r.nextInt(10)]++;
    for (const n of counts) expect(Math.abs(n - 10_000)).toBeLessThan(500);
  });
  it('derives distinct, stable seeds per statistic', () => {
    expect(deriveSeed(1, 'mean:a')).toBe(deriveSeed(1, 'mean:a'));
    expect(deriveSeed(1, 'mean:a')).not.toBe(deriveSeed(1, 'mean:b'));
    expect(deriveSeed(1, 'mean:a')).not.toBe(deriveSeed(2, 'mean:a'));
  });
});

describe('numeric helpers', () => {
  it('quantiles interpolate linearly like numpy', () => {
    const s = Float64Array.from([1, 2, 3, 4]);
    expect(quantileSorted(s, 0)).toBe(1);
    expect(quantileSorted(s, 1)).toBe(4);
    expect(quantileSorted(s, 0.5)).toBe(2.5);
    expect(quantileSorted(s, 0.25)).toBeCloseTo(1.75, 12);
  });
  it('normal CDF and quantile invert each other', () => {
    expect(normPpf(0.975)).toBeCloseTo(1.959964, 5);
    expect(normCdf(1.959964)).toBeCloseTo(0.975, 6);
    for (const p of [1e-6, 0.01, 0.3, 0.5, 0.8, 0.999]) expect(normCdf(normPpf(p))).toBeCloseTo(p, 6);
  });
  it('rounds half away from zero at the printed precision', () => {
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(63.7473, 1)).toBe(63.7);
    expect(roundTo(-2.675, 2)).toBe(-2.68);
    expect(roundTo(64.99636, 2)).toBe(65);
  });
});

describe('cluster bootstrap', () => {
  it('is reproducible for a seed and resamples clusters, not observations', () => {
    // Three identical trials per task: the trials carry no extra information.
    const taskMeans = [40, 55, 60, 62, 70, 71, 75, 80, 85, 90, 95, 30];
    const data = clustersFrom(taskMeans.map((m) => [m, m, m]));
    const a = clusterBootstrap(data, { seed: 5 });
    const b = clusterBootstrap(data, { seed: 5 });
    expect(a).toEqual(b);
    const mean = taskMeans.reduce((x, y) => x + y, 0) / taskMeans.length;
    expect(a.estimate).toBeCloseTo(mean, 12);
    // SE ~ sd(task means)/sqrt(12), not sd/sqrt(36) as if trials were independent.
    const sd = Math.sqrt(taskMeans.reduce((x, y) => x + (y - mean) ** 2, 0) / taskMeans.length);
    expect(a.standardError!).toBeGreaterThan(0.9 * (sd / Math.sqrt(12)));
    expect(a.standardError!).toBeLessThan(1.1 * (sd / Math.sqrt(12)));
    expect(a.percentile!.low).toBeLessThan(mean);
    expect(a.percentile!.high).toBeGreaterThan(mean);
    expect(a.bca!.low).toBeLessThan(a.bca!.high);
  });
  it('leaves out empty clusters and returns nulls, not zeros, for no data', () => {
    const r = clusterBootstrap({ sums: [], counts: [] });
    expect(r.estimate).toBeNull();
    expect(r.percentile).toBeNull();
    const withEmpty = clusterBootstrap({ sums: [10, 0, 30], counts: [1, 0, 1] }, { resamples: 200 });
    expect(withEmpty.clusters).toBe(2);
    expect(withEmpty.estimate).toBe(20);
  });
  it('pins every number of one seeded bootstrap (the order of random draws decides them)', () => {
    const r = clusterBootstrap(
      { sums: [12, 0, 7, 30, 18, 5, 9], counts: [2, 0, 1, 3, 2, 1, 1] },
      { seed: 7, resamples: 40, confidence: 0.9, keepDistribution: true },
    );
    expect({ ...r, distribution: Array.from(r.distribution!.subarray(0, 8)) }).toMatchInlineSnapshot(`
      {
        "acceleration": 0.03909331222255045,
        "bca": {
          "high": 8.9,
          "low": 6.216557033828068,
        },
        "bcaLevels": {
          "high": 0.8072849925896723,
          "low": 0.009921139169163044,
        },
        "clusters": 6,
        "confidence": 0.9,
        "distribution": [
          6.142857142857143,
          6.333333333333333,
          6.75,
          6.75,
          7,
          7,
          7.285714285714286,
          7.333333333333333,
        ],
        "estimate": 8.1,
        "observations": 10,
        "percentile": {
          "high": 9.166666666666666,
          "low": 6.729166666666666,
        },
        "resamples": 40,
        "seed": 7,
        "standardError": 0.8501515874858043,
        "z0": -0.4192957216993121,
      }
    `);
  });
  it('gives a degenerate interval for constant data', () => {
    const r = clusterBootstrap({ sums: [5, 5, 5], counts: [1, 1, 1] }, { resamples: 100 });
    expect(r.percentile).toEqual({ low: 5, high: 5 });
    expect(r.bca).toEqual({ low: 5, high: 5 });
  });
});

describe('association and agreement', () => {
  it("Kendall's tau-b", () => {
    expect(kendallTau([1, 2, 3], [10, 20, 30])).toBe(1);
    expect(kendallTau([1, 2, 3], [3, 2, 1])).toBe(-1);
    expect(kendallTau([1, 2, 3, 4], [1, 3, 2, 4])).toBeCloseTo(4 / 6, 12);
    expect(kendallTau([1, 1], [1, 2])).toBeNull();
  });
  it("Cohen's kappa and raw agreement", () => {
    const a = cohenKappa([true, true, false, false], [true, false, false, false]);
    expect(a.raw).toBe(0.75);
    expect(a.kappa).toBeCloseTo(0.5, 12);
    expect(cohenKappa([true, true], [true, true]).kappa).toBeNull();
    expect(cohenKappa([], []).raw).toBeNull();
  });
  it("McNemar's exact test counts only discordant pairs", () => {
    const A = [...Array(7).fill(true), ...Array(2).fill(false), ...Array(5).fill(true)];
    const B = [...Array(7).fill(false), ...Array(2).fill(true), ...Array(5).fill(true)];
    const r = mcnemarTest(A, B);
    expect([r.aOnly, r.bOnly]).toEqual([7, 2]);
    expect(r.pExact).toBeCloseTo(92 / 512, 12);
    expect(mcnemarTest([true], [true]).pExact).toBe(1);
  });
  it('Holm adjustment is monotone and capped at 1', () => {
    expect(holm([0.01, 0.04, 0.03])).toEqual([0.03, 0.06, 0.06]);
    expect(holm([0.6, 0.9])).toEqual([1, 1]);
  });
});
