// Beyond the papers: does system A beat system B on the same tasks?
// Mean difference of per-task mean scores with a task-cluster (paired) bootstrap CI,
// and McNemar's test on success, pairing trial i of A with trial i of B per task.
import type { ColumnTable } from 'arquero';
import { SUCCESS_THRESHOLD } from '@assay/core';
import { clusterBootstrap } from './cluster-bootstrap.js';
import type { BootstrapOptions } from './cluster-bootstrap.js';
import { mcnemarTest } from './mcnemar-test.js';
import { messages } from './messages.js';
import { deriveSeed, DEFAULT_SEED } from './seeded-rng.js';
import { groupBy, intervalColumns, isNum, meanOf, rowsOf, tableOf } from './table-helpers.js';

export interface PairedComparison {
  a: string;
  b: string;
  tasks: number;
  meanA: number;
  meanB: number;
  /** mean over common tasks of (mean_A(task) - mean_B(task)). */
  difference: number;
  ci: { low: number; high: number } | null;
  bca: { low: number; high: number } | null;
  /** Share of common tasks where A's mean is higher / lower. */
  aWins: number;
  bWins: number;
  successPairs: number;
  successAOnly: number;
  successBOnly: number;
  mcnemarP: number;
  /** "A > B", "B > A" or "no clear difference" from the CI of the difference (BCa when defined). */
  verdict: string;
}

interface ScoreRow {
  system: string;
  task: string;
  trial: number;
  score: number | null;
}

export function pairedComparison(
  trials: ColumnTable,
  a: string,
  b: string,
  options: BootstrapOptions = {},
): PairedComparison {
  const rows = rowsOf<ScoreRow>(trials.select('system', 'task', 'trial', 'score')).filter((r) => isNum(r.score));
  const known = new Set(rows.map((r) => r.system));
  for (const s of [a, b]) if (!known.has(s)) throw new Error(messages.unknownSystem(s, [...known].join(', ')));
  const tasksA = groupBy(
    rows.filter((r) => r.system === a),
    (r) => r.task,
  );
  const tasksB = groupBy(
    rows.filter((r) => r.system === b),
    (r) => r.task,
  );
  const common = [...tasksA.keys()].filter((t) => tasksB.has(t)).sort();
  if (common.length === 0) throw new Error(messages.noCommonTasks(a, b));
  const diffs: number[] = [];
  const meansA: number[] = [];
  const meansB: number[] = [];
  const succA: boolean[] = [];
  const succB: boolean[] = [];
  for (const t of common) {
    const la = tasksA.get(t) as ScoreRow[];
    const lb = tasksB.get(t) as ScoreRow[];
    const ma = meanOf(la.map((r) => r.score)) as number;
    const mb = meanOf(lb.map((r) => r.score)) as number;
    meansA.push(ma);
    meansB.push(mb);
    diffs.push(ma - mb);
    const byTrialB = new Map(lb.map((r) => [r.trial, r.score as number]));
    for (const r of la) {
      const sb = byTrialB.get(r.trial);
      if (sb === undefined) continue;
      succA.push((r.score as number) >= SUCCESS_THRESHOLD);
      succB.push(sb >= SUCCESS_THRESHOLD);
    }
  }
  const seed = deriveSeed(options.seed ?? DEFAULT_SEED, `paired:${a}:${b}`);
  const boot = clusterBootstrap({ sums: diffs, counts: diffs.map(() => 1) }, { ...options, seed });
  const mc = mcnemarTest(succA, succB);
  const ci = boot.bca ?? boot.percentile;
  const verdict =
    ci === null
      ? 'no clear difference'
      : ci.low > 0
        ? `${a} > ${b}`
        : ci.high < 0
          ? `${b} > ${a}`
          : 'no clear difference';
  return {
    a,
    b,
    tasks: common.length,
    meanA: meanOf(meansA) as number,
    meanB: meanOf(meansB) as number,
    difference: boot.estimate as number,
    ci: boot.percentile,
    bca: boot.bca,
    aWins: diffs.filter((d) => d > 0).length / diffs.length,
    bWins: diffs.filter((d) => d < 0).length / diffs.length,
    successPairs: mc.pairs,
    successAOnly: mc.aOnly,
    successBOnly: mc.bOnly,
    mcnemarP: mc.pExact,
    verdict,
  };
}

/**
 * Every pair of systems (in the given order, e.g. leaderboard order), with Holm-adjusted
 * McNemar p-values across the pairs so that many comparisons do not manufacture a winner.
 */
export function pairwiseComparisons(
  trials: ColumnTable,
  systems: readonly string[],
  options: BootstrapOptions = {},
): ColumnTable {
  const results: PairedComparison[] = [];
  for (let i = 0; i < systems.length; i++) {
    for (let j = i + 1; j < systems.length; j++) {
      try {
        results.push(pairedComparison(trials, systems[i] as string, systems[j] as string, options));
      } catch {
        // No common tasks: nothing to compare.
      }
    }
  }
  const adjusted = holm(results.map((r) => r.mcnemarP));
  return tableOf(
    results.map((r, i) => ({
      a: r.a,
      b: r.b,
      tasks: r.tasks,
      difference: r.difference,
      ...intervalColumns('ci', r.ci),
      ...intervalColumns('bca', r.bca),
      a_only_success: r.successAOnly,
      b_only_success: r.successBOnly,
      mcnemar_p: r.mcnemarP,
      mcnemar_p_holm: adjusted[i] ?? null,
      verdict: r.verdict,
    })),
    [
      'a',
      'b',
      'tasks',
      'difference',
      'ci_low',
      'ci_high',
      'bca_low',
      'bca_high',
      'a_only_success',
      'b_only_success',
      'mcnemar_p',
      'mcnemar_p_holm',
      'verdict',
    ],
  );
}

/** Holm's step-down adjustment of p-values (returned in input order). */
export function holm(ps: readonly number[]): number[] {
  const m = ps.length;
  const order = ps.map((p, i) => ({ p, i })).sort((x, y) => x.p - y.p);
  const out = new Array<number>(m);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    out[i] = running;
  });
  return out;
}
