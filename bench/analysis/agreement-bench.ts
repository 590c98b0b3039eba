// Bench: judge agreement with people's labels at StartupBench's scale (2,453 labelled items, 9 systems), as the
// report and the viewer's agreement page compute it (labelAgreement: pooled and per system, importance and
// dimension, each with a 2,000-resample kappa interval), against the baseline of the same intervals computed
// the direct way (cohenKappa on each resampled pair of arrays), both on identical data in this run.
// Run: npx tsx bench/analysis/agreement-bench.ts
import { loadavg } from 'node:os';
import { tableOf } from '../../analysis/src/table-helpers.js';
import { IMPORTANCE_WEIGHTS, scoreTask, type Verdict, type TrialRecord } from '@assay/core';
import { cohenKappa } from '../../analysis/src/cohen-kappa.js';
import { kappaInterval } from '../../analysis/src/kappa-interval.js';
import { judgedSetupOf, labelAgreement } from '../../analysis/src/label-agreement.js';
import { quantileSorted } from '../../analysis/src/numeric.js';
import { createRng } from '../../analysis/src/seeded-rng.js';

const ITEMS = 2_453;
const SYSTEMS = 9;
const RESAMPLES = 2_000;
const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
const IMPORTANCE = ['core', 'important', 'auxiliary'] as const;
const DIMENSIONS = ['calculation-precision', 'structure-completeness', 'professional-quality'] as const;

// 2,453 items spread over 97 tasks and 9 systems; the judge agrees with the label about 90 % of the time.
const rng = createRng(31);
const trials: TrialRecord[] = [];
const labels: Record<string, unknown>[] = [];
for (let s = 0; s < SYSTEMS; s++) {
  for (let t = 0; t < 97; t++) {
    const n = Math.floor(ITEMS / SYSTEMS / 97) + (t < (ITEMS / SYSTEMS) % 97 ? 1 : 0);
    const verdicts: Verdict[] = Array.from({ length: n }, (_, i) => {
      const importance = IMPORTANCE[i % 3]!;
      const judge = rng.nextFloat() < 0.7;
      const human = rng.nextFloat() < 0.9 ? judge : !judge;
      labels.push({ system: `s${s}`, unit: `t${t}`, trial: 1, item: `i${i}`, scope: null, human: human ? 1 : 0 });
      return {
        ...{ itemId: `i${i}`, importance, dimension: DIMENSIONS[i % 3]!, weight: IMPORTANCE_WEIGHTS[importance] },
        ...{ decision: judge ? 'satisfied' : 'not-satisfied', source: 'judge', reason: '' },
      } as Verdict;
    });
    const at = '2026-01-01T00:00:00.000Z';
    trials.push({
      schema: 'assay.trial-record/v1',
      ...{ jobId: 'bench', benchmark: { id: 'b', version: '1' }, trial: 1, status: 'completed', usage: null },
      system: { id: `s${s}`, harness: 'h', model: 'm' },
      task: { id: `t${t}`, domain: 'finance', formatRequired: false },
      agent: {
        exitCode: 0,
        timedOut: false,
        reason: null,
        startedAt: at,
        endedAt: at,
        durationSeconds: 1,
        containerAttempts: 1,
      },
      ...{ deliverables: [], verdicts, score: scoreTask(verdicts), recordedAt: at },
      formatCompliance: { required: false, compliant: true, missing: [], wrongType: [] },
    } as TrialRecord);
  }
}
const table = tableOf(labels, ['system', 'unit', 'trial', 'item', 'scope', 'human']);
const setup = judgedSetupOf('bench', trials, []);

/** The baseline interval: kappa of each resample from the resampled decisions themselves. */
function directInterval(a: boolean[], b: boolean[]): [number, number] {
  const r = createRng(20_260_101);
  const draws = new Uint32Array(a.length);
  const ks: number[] = [];
  for (let i = 0; i < RESAMPLES; i++) {
    r.fillInts(a.length, draws);
    const k = cohenKappa(
      [...draws].map((d) => a[d]!),
      [...draws].map((d) => b[d]!),
    ).kappa;
    if (k !== null) ks.push(k);
  }
  ks.sort((x, y) => x - y);
  return [quantileSorted(ks, 0.025), quantileSorted(ks, 0.975)];
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const time = (f: () => unknown) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};
const a = labels.map((_, i) => setup.verdicts.get('satisfied', i) === 1);
const b = labels.map((l) => l.human === 1);
const same = kappaInterval(a, b);
const [lo, hi] = directInterval(a, b);
if (Math.abs(same!.low - lo) > 1e-12 || Math.abs(same!.high - hi) > 1e-12) throw new Error('intervals differ');
const ours: number[] = [];
const direct: number[] = [];
const pooled: number[] = [];
let rows = 0;
for (let r = 0; r < REPEATS; r++) {
  pooled.push(time(() => kappaInterval(a, b)));
  direct.push(time(() => directInterval(a, b)));
  ours.push(time(() => (rows = labelAgreement([setup], table)!.rows.numRows())));
}
console.log(`load ${loadavg()[0]!.toFixed(2)}; ${ITEMS} labelled items, ${RESAMPLES} resamples, median of ${REPEATS}`);
console.log(
  `one kappa interval: ${median(pooled).toFixed(1)} ms; the direct way ${median(direct).toFixed(1)} ms (${(median(pooled) / median(direct)).toFixed(3)}x), same interval`,
);
console.log(`the whole agreement (${rows} rows, each with its interval): ${median(ours).toFixed(0)} ms`);
