// The report's single-task comparisons: what keeping the best trial would give (oracle best-of-k), general against
// specialized systems, the same model under each harness, and which pairwise differences hold up under a paired
// test. Each needs full scores, so a checks-only job skips them.
import type { TaskAnalysis } from '../analyze-results.js';
import { harnessSwapFigure, oracleFigure } from '../figures/startup-figures.js';
import { rowsOf } from '../table-helpers.js';
import { harnessSwapFormats, intervalFormats } from './column-formats.js';
import { f1, f2 } from './narrative-numbers.js';
import type { DocumentBuilder } from './report-document.js';

export function oracleSection(d: DocumentBuilder, t: TaskAnalysis): void {
  const or = rowsOf<{
    system: string;
    all_runs_mean: number | null;
    oracle_mean: number | null;
    oracle_gap: number | null;
    k: number;
  }>(t.oracle);
  d.markdown(
    `## Oracle best-of-k\n\nKeeping the best of k trials per task raises the mean by ${or.map((r) => `${f1(r.oracle_gap)} (${r.system}, k = ${r.k})`).join(', ')}.`,
  );
  d.table({
    id: 'oracle',
    title: 'Oracle best-of-k (Table 7)',
    caption: 'Best trial per system and task; CI resamples tasks.',
    table: t.oracle,
    columns: [
      { name: 'system' },
      { name: 'tasks' },
      { name: 'k' },
      { name: 'all_runs_mean', label: 'all runs', digits: 2 },
      { name: 'all_runs_success', label: 'all runs success %', digits: 2 },
      { name: 'oracle_mean', label: 'oracle', digits: 2 },
      ...intervalFormats('oracle_ci', 'CI'),
      { name: 'oracle_success', label: 'oracle success %', digits: 2 },
      { name: 'oracle_gap', label: 'gap', digits: 2 },
    ],
  });
  d.figure(
    {
      id: 'oracle',
      title: 'Oracle vs all runs',
      caption: 'Mean over all trials and over the best trial per task.',
      spec: oracleFigure(or.map((r) => ({ system: r.system, all_runs: r.all_runs_mean, oracle: r.oracle_mean }))),
    },
    ['value'],
  );
}

export function generalVsSpecializedSection(d: DocumentBuilder, t: TaskAnalysis): void {
  if (!t.generalVsSpecialized) return;
  d.table({
    id: 'general-vs-specialized',
    title: 'General vs specialized (Table 7)',
    caption: 'General rows average the general systems equally.',
    table: t.generalVsSpecialized,
    columns: [
      { name: 'agent_system', label: 'agent system' },
      { name: 'systems' },
      { name: 'avg_score', label: 'avg score', digits: 2 },
      { name: 'success_rate', label: 'success %', digits: 2 },
    ],
  });
}

export function harnessSwapSection(d: DocumentBuilder, t: TaskAnalysis): void {
  const hs = t.harnessSwap;
  if (hs.harnesses.length <= 1) return;
  d.markdown(
    `## Harness swap\n\nSame model and tasks, only the harness changes. Average max–min across models: ${f2(hs.averageMaxMin)} points. ${hs.rankingPreserved ? 'The model ranking is the same under every harness' : 'The model ranking changes between harnesses'} (Kendall tau: ${hs.taus.map((x) => `${x.a} vs ${x.b} ${f2(x.tau)}`).join(', ')}).`,
  );
  d.table({
    id: 'harness-swap',
    title: 'Harness swap (Table 6)',
    caption: 'Mean score per model and harness on the tasks scored under every harness of that model.',
    table: hs.wide,
    columns: harnessSwapFormats(hs.wide),
  });
  d.figure(
    {
      id: 'harness-swap',
      title: 'Harness swap',
      caption: 'Dots: harnesses; line: max–min.',
      spec: harnessSwapFigure(rowsOf(hs.means) as never),
    },
    ['avg_score'],
  );
  d.table({
    id: 'harness-swap-paired',
    title: 'Harness swap, paired',
    caption:
      'Per model, each pair of harnesses on the tasks both ran, compared as `assay compare` compares two runs: A − B with its task-cluster bootstrap CI (BCa where defined) and McNemar’s exact test on success.',
    table: hs.paired,
    columns: [
      { name: 'model' },
      { name: 'a', label: 'harness A' },
      { name: 'b', label: 'harness B' },
      { name: 'tasks' },
      { name: 'mean_a', label: 'mean A', digits: 1 },
      { name: 'mean_b', label: 'mean B', digits: 1 },
      { name: 'difference', label: 'A − B', digits: 1 },
      { name: 'ci_low', label: 'CI low', digits: 1 },
      { name: 'ci_high', label: 'CI high', digits: 1 },
      { name: 'mcnemar_p', label: 'McNemar p', digits: 3 },
      { name: 'verdict' },
    ],
  });
}

export function pairwiseSection(d: DocumentBuilder, t: TaskAnalysis): void {
  const pw = rowsOf<{ verdict: string }>(t.pairwise);
  if (pw.length === 0) return;
  const clear = pw.filter((r) => r.verdict !== 'no clear difference');
  d.markdown(
    `## Which differences are real\n\nPaired comparison on common tasks: the CI of the mean per-task difference (task-cluster bootstrap, BCa), and McNemar's exact test on success (trial i of A vs trial i of B), Holm-adjusted across pairs. ${clear.length} of ${pw.length} pairs differ clearly: ${
      clear
        .slice(0, 8)
        .map((r) => r.verdict)
        .join('; ') || 'none'
    }.`,
  );
  d.table({
    id: 'pairwise',
    title: 'Paired comparisons',
    caption: 'difference = mean over common tasks of (A − B); McNemar p exact, and Holm-adjusted.',
    table: t.pairwise,
    columns: [
      { name: 'a' },
      { name: 'b' },
      { name: 'tasks' },
      { name: 'difference', digits: 2 },
      ...intervalFormats('bca', 'BCa'),
      { name: 'a_only_success', label: 'A-only succ.' },
      { name: 'b_only_success', label: 'B-only succ.' },
      { name: 'mcnemar_p', label: 'McNemar p', digits: 4 },
      { name: 'mcnemar_p_holm', label: 'Holm p', digits: 4 },
      { name: 'verdict' },
    ],
  });
}
