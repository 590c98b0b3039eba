// Our cluster bootstrap (percentile and BCa), Kendall's tau, McNemar's exact test and
// the normal quantile against SciPy, on identical data. Bootstrap intervals must agree
// within Monte Carlo error: both sides draw 10,000 resamples from different RNGs.
import { beforeAll, describe, expect, it } from 'vitest';
import { clusterBootstrap, quantileMcError } from '../src/cluster-bootstrap.js';
import { kendallTau } from '../src/kendall-tau.js';
import { mcnemarTest } from '../src/mcnemar-test.js';
import { normPpf } from '../src/numeric.js';
import { createRng } from '../src/seeded-rng.js';
import { ensureScipyVenv, runPythonJson } from './helpers/python-venv.js';
import type { VenvStatus } from './helpers/python-venv.js';

const SCIPY_BOOTSTRAP = `
import json, sys
import numpy as np
from scipy import stats
req = json.load(sys.stdin)
out = []
for case in req['cases']:
    sums = np.array(case['sums'], dtype=float)
    counts = np.array(case['counts'], dtype=float)
    res = {}
    for method in ('percentile', 'BCa'):
        kw = dict(n_resamples=req['resamples'], confidence_level=req['confidence'], method=method, rng=np.random.default_rng(req['seed']), vectorized=True)
        if len(set(case['counts'])) == 1:
            r = stats.bootstrap((sums / counts,), np.mean, **kw)
        else:
            def ratio(s, c, axis=-1):
                return s.sum(axis=axis) / c.sum(axis=axis)
            r = stats.bootstrap((sums, counts), ratio, paired=True, **kw)
        res[method] = [float(r.confidence_interval.low), float(r.confidence_interval.high)]
        res['se'] = float(r.standard_error)
    out.append(res)
print(json.dumps(out))
`;

interface Case {
  name: string;
  sums: number[];
  counts: number[];
}

/** StartupBench-shaped and skewed data sets, generated once and sent to both sides unchanged. */
function cases(): Case[] {
  const rng = createRng(11);
  const out: Case[] = [];
  // 97 tasks x 3 trials of scores in 0–100, bunched near the top with a long low tail.
  const tasks = Array.from({ length: 97 }, () => {
    const base = 100 * Math.pow(rng.nextFloat(), 0.35);
    return Array.from({ length: 3 }, () => Math.min(100, Math.max(0, base + (rng.nextFloat() - 0.5) * 30)));
  });
  out.push({
    name: 'scores, 97 tasks x 3 trials',
    sums: tasks.map((t) => t[0]! + t[1]! + t[2]!),
    counts: tasks.map(() => 3),
  });
  // The same with unjudged trials removed: unequal cluster sizes (ratio of sums).
  const kept = tasks.map((t, i) => (i % 7 === 0 ? t.slice(0, 1) : i % 5 === 0 ? t.slice(0, 2) : t));
  out.push({
    name: 'scores with unjudged trials (unequal clusters)',
    sums: kept.map((t) => t.reduce((a, b) => a + b, 0)),
    counts: kept.map((t) => t.length),
  });
  // Success (>= 90) as 0/1, rare: strongly skewed.
  out.push({
    name: 'success indicators',
    sums: tasks.map((t) => t.filter((x) => x >= 90).length),
    counts: tasks.map(() => 3),
  });
  // 11 projects, heavy right skew (lognormal-like).
  const skew = Array.from({ length: 11 }, () => Math.exp(2 * normPpf(Math.max(1e-9, rng.nextFloat()))));
  out.push({ name: '11 projects, heavy skew', sums: skew, counts: skew.map(() => 1) });
  // 40 clusters, moderate skew: BCa and percentile intervals clearly differ here.
  const mid = Array.from({ length: 40 }, () => Math.exp(1.2 * normPpf(Math.max(1e-9, rng.nextFloat()))));
  out.push({ name: '40 clusters, lognormal', sums: mid, counts: mid.map(() => 1) });
  return out;
}

let venv: VenvStatus;
beforeAll(async () => {
  venv = await ensureScipyVenv();
  if (!venv.ok) console.warn(`SKIPPING SciPy comparisons: ${venv.reason}`);
}, 600_000);

describe('agreement with SciPy', () => {
  it('cluster bootstrap percentile and BCa intervals match scipy.stats.bootstrap within Monte Carlo error', (ctx) => {
    if (!venv.ok) return ctx.skip();
    const data = cases();
    const resamples = 10_000;
    const sp = runPythonJson<{ percentile: [number, number]; BCa: [number, number]; se: number }[]>(
      venv.python,
      SCIPY_BOOTSTRAP,
      { cases: data, resamples, confidence: 0.95, seed: 12345 },
    );
    let bcaDiffersFromPercentile = false;
    data.forEach((c, i) => {
      const ours = clusterBootstrap(
        { sums: c.sums, counts: c.counts },
        { resamples, seed: 777 + i, keepDistribution: true },
      );
      const ref = sp[i]!;
      // Both sides are Monte Carlo estimates from 10,000 resamples: allow 5 standard errors
      // of the difference, sqrt(2) x the MC error of our endpoint at its quantile level.
      const tol = (p: number): number => 5 * Math.SQRT2 * quantileMcError(ours.distribution!, p);
      const lv = ours.bcaLevels!;
      expect(Math.abs(ours.standardError! - ref.se) / ref.se, `${c.name} standard error`).toBeLessThan(0.05);
      const checks: [string, number, number, number][] = [
        ['percentile low', ours.percentile!.low, ref.percentile[0], 0.025],
        ['percentile high', ours.percentile!.high, ref.percentile[1], 0.975],
        ['BCa low', ours.bca!.low, ref.BCa[0], lv.low],
        ['BCa high', ours.bca!.high, ref.BCa[1], lv.high],
      ];
      for (const [what, mine, theirs, level] of checks) {
        expect(Math.abs(mine - theirs), `${c.name}: ${what}`).toBeLessThan(tol(level));
      }
      if (
        Math.abs(ref.BCa[0] - ref.percentile[0]) > 2 * tol(lv.low) ||
        Math.abs(ref.BCa[1] - ref.percentile[1]) > 2 * tol(lv.high)
      )
        bcaDiffersFromPercentile = true;
    });
    // The comparison has teeth: on skewed data the two methods differ by more than the tolerance.
    expect(bcaDiffersFromPercentile).toBe(true);
  }, 120_000);

  it("Kendall's tau-b, McNemar exact p and the normal quantile match SciPy", (ctx) => {
    if (!venv.ok) return ctx.skip();
    const pairs = [
      { x: [1, 2, 3, 4, 5], y: [2, 1, 4, 3, 5] },
      { x: [71, 60.2, 59.1], y: [72.79, 60.79, 59.46] },
      { x: [1, 1, 2, 3, 3, 4], y: [1, 2, 2, 2, 5, 4] },
    ];
    const mc = [
      [7, 2],
      [0, 0],
      [15, 30],
      [1, 9],
    ];
    const ps = [0.001, 0.025, 0.3, 0.5, 0.975, 0.9999];
    const sp = runPythonJson<{ tau: number[]; p: number[]; ppf: number[] }>(
      venv.python,
      `
import json, sys
from scipy import stats
r = json.load(sys.stdin)
print(json.dumps({
  'tau': [float(stats.kendalltau(p['x'], p['y']).statistic) for p in r['pairs']],
  'p': [1.0 if a + b == 0 else float(stats.binomtest(min(a, b), a + b, 0.5).pvalue) for a, b in r['mc']],
  'ppf': [float(stats.norm.ppf(p)) for p in r['ps']],
}))`,
      { pairs, mc, ps },
    );
    pairs.forEach((p, i) => expect(kendallTau(p.x, p.y)).toBeCloseTo(sp.tau[i]!, 12));
    mc.forEach(([a, b], i) => {
      const A = [...Array(a).fill(true), ...Array(b).fill(false), true, false];
      const B = [...Array(a).fill(false), ...Array(b).fill(true), true, false];
      expect(mcnemarTest(A, B).pExact).toBeCloseTo(sp.p[i]!, 10);
    });
    ps.forEach((p, i) => expect(normPpf(p)).toBeCloseTo(sp.ppf[i]!, 6));
  }, 60_000);
});
