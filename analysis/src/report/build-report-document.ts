// The narrative of a report on a user's own runs: for each statistic a sentence that
// says what the numbers show (with their uncertainty), the table and the figure.
import type { ColumnTable } from 'arquero';
import type { Analysis } from '../analyze-results.js';
import { projectProfiles } from '../delivery-profiles.js';
import { OVERALL } from '../domain-profile.js';
import {
  processFinalScatter,
  resourcesFigure,
  systemBarFigure,
  trajectoriesFigure,
} from '../figures/deliver-figures.js';
import type { SystemValue } from '../figures/deliver-figures.js';
import {
  dimensionFigure,
  domainFigure,
  formatComplianceFigure,
  harnessSwapFigure,
  heatmapFigure,
  importanceFigure,
  leaderboardFigure,
  oracleFigure,
} from '../figures/startup-figures.js';
import { messages } from '../messages.js';
import type { ResultTables } from '../results-tables.js';
import { rowsOf } from '../table-helpers.js';
import type { Row } from '../table-helpers.js';
import {
  AGREEMENT_FORMATS,
  harnessSwapFormats,
  intervalFormats,
  LEADERBOARD_FORMATS,
  resourceFormats,
} from './column-formats.js';
import { labelAgreementSections } from './label-agreement-sections.js';
import { reviewsSection } from './reviews-section.js';
import { DocumentBuilder } from './report-document.js';
import type { ReportDocument } from './report-document.js';

const f1 = (x: unknown): string => (typeof x === 'number' ? x.toFixed(1) : '—');
const f2 = (x: unknown): string => (typeof x === 'number' ? x.toFixed(2) : '—');
const ci = (lo: unknown, hi: unknown): string => `[${f1(lo)}, ${f1(hi)}]`;

export function buildReportDocument(
  analysis: Analysis,
  tables: ResultTables,
  meta: Record<string, string | number>,
): ReportDocument {
  const d = new DocumentBuilder();
  const { settings, counts } = analysis;
  d.markdown(`
## About this report

Scores are on a 0–100 scale; success means a score of at least 90. Unjudged results are never counted as 0: they are
left out of means and counted separately. Confidence intervals are ${Math.round(settings.confidence * 100)}% cluster-bootstrap
intervals with ${settings.resamples.toLocaleString('en-US')} resamples (seed ${settings.seed}): tasks (or projects) are
resampled as clusters, so all trials of a task move together. Both percentile and BCa intervals are reported.

- Trials: ${counts.trials} (${counts.trialsScored} scored, ${counts.trials - counts.trialsScored} unjudged or failed to score)
- Project runs: ${counts.projects} (${counts.projectsFinalScored} with a final score); checkpoints: ${counts.checkpoints} (${counts.checkpointsJudged} judged)
`);
  if (analysis.tasks) taskSections(d, analysis.tasks);
  reviewsSection(d, analysis);
  if (analysis.projects) projectSections(d, analysis.projects, tables);
  labelAgreementSections(d, analysis);
  if (analysis.judgeSetups) {
    d.markdown(
      '## Judge setups\n\nJobs that judged the same systems, tasks and trials, compared item by item as `assay compare` compares them (e.g. per-item vs holistic judging).',
    );
    d.table({
      id: 'judge-setups',
      title: 'Agreement between judge setups',
      caption:
        'Raw agreement (%) and Cohen’s kappa on the items both decided, per system and pooled (all); items one setup decided and the other left unjudged are counted apart.',
      table: analysis.judgeSetups,
      columns: [
        { name: 'a' },
        { name: 'b' },
        { name: 'system' },
        ...AGREEMENT_FORMATS.filter((c) => c.name !== 'unjudged'),
        { name: 'decided_a_only', label: 'decided by A only' },
        { name: 'decided_b_only', label: 'decided by B only' },
      ],
    });
  }
  return {
    title: String(meta.title ?? 'assay report'),
    meta: Object.fromEntries(Object.entries(meta).filter(([k]) => k !== 'title')),
    blocks: d.blocks,
  };
}

function taskSections(d: DocumentBuilder, t: NonNullable<Analysis['tasks']>): void {
  const systems = rowsOf<{ system: string }>(t.leaderboard).map((r) => r.system);
  // No trial with every item decided (checks-only): one line says so, the board ranks decided items, and the
  // sections built on full scores wait for them rather than print empty values.
  if (t.decidedLeaderboard) decidedLeaderboardSection(d, t.decidedLeaderboard, t.leaderboard);
  else {
    leaderboardSection(d, t);
    scoreVsSuccessSection(d, t);
  }
  d.markdown(
    '## Profiles\n\nPer-domain averages pool all trials of the domain; the Overall row weights each domain by its task count (StartupBench Table 3).',
  );
  if (!t.decidedLeaderboard) domainSection(d, t, systems);
  const dims = rowsOf<{ system: string; dimension: string; pass_rate: number | null }>(t.dimensions);
  d.table({
    id: 'dimensions',
    title: 'Rubric dimensions (Fig. 4)',
    caption: 'Importance-weighted pass rate (%): sum of weights of satisfied items / sum of weights of decided items.',
    table: t.dimensions,
    columns: [
      { name: 'system' },
      { name: 'dimension' },
      { name: 'items' },
      { name: 'unjudged' },
      { name: 'pass_rate', label: 'pass rate %', digits: 1 },
    ],
  });
  d.figure(
    {
      id: 'dimensions',
      title: 'Pass rate by rubric dimension',
      caption: 'Importance-weighted pass rates.',
      spec: dimensionFigure(
        dims.map((r) => ({ system: r.system, dimension: r.dimension, value: r.pass_rate })),
        systems,
      ),
    },
    ['value'],
  );
  const imp = t.importanceSummary;
  d.markdown(
    `### Importance levels\n\nAveraged across systems: Auxiliary ${f2(imp.average.Auxiliary)}%, Important ${f2(imp.average.Important)}%, Core ${f2(imp.average.Core)}%; ${imp.monotone} of ${imp.systems} systems satisfy Auxiliary > Important > Core.`,
  );
  d.table({
    id: 'importance',
    title: 'Importance levels (Table 4)',
    caption:
      'Satisfaction rate within each system-task-trial and level, averaged (%); units = task-trials with decided items of that level.',
    table: t.importance,
    columns: [
      { name: 'system' },
      { name: 'level' },
      { name: 'units' },
      { name: 'satisfaction', label: 'satisfaction %', digits: 2 },
    ],
  });
  d.figure(
    {
      id: 'importance',
      title: 'Importance levels',
      caption: 'Satisfaction by importance level.',
      spec: importanceFigure(rowsOf(t.importance) as never, systems),
    },
    ['satisfaction'],
  );
  if (t.formatCompliance.numRows() > 0) {
    d.table({
      id: 'format-compliance',
      title: 'Output-format compliance (Table 5)',
      caption:
        'Share of runs (on tasks requiring a format) whose deliverables have the required types; infrastructure failures excluded and counted.',
      table: t.formatCompliance,
      columns: [
        { name: 'system' },
        { name: 'tasks' },
        { name: 'runs' },
        { name: 'compliant' },
        { name: 'excluded_infra', label: 'excluded (infra)' },
        { name: 'compliance', label: 'compliance %', digits: 1 },
      ],
    });
    d.figure(
      {
        id: 'format-compliance',
        title: 'Output-format compliance',
        caption: 'Deterministic, from detected file types.',
        spec: formatComplianceFigure(rowsOf(t.formatCompliance) as never),
      },
      ['compliance'],
    );
  }

  if (!t.decidedLeaderboard) comparisonSections(d, t);
  d.table({
    id: 'resources',
    title: 'Resource use',
    caption: 'Mean agent hours and tokens (input + output, millions) per trial; with_usage = trials reporting tokens.',
    table: t.resources,
    columns: resourceFormats({ units: 'trials', hoursDigits: 3, tokensDigits: 3, score: 'score' }),
  });
}

function decidedLeaderboardSection(d: DocumentBuilder, board: ColumnTable, full: ColumnTable): void {
  const rows = rowsOf<{ unjudged: number }>(full);
  const unjudged = rows.reduce((n, r) => n + r.unjudged, 0);
  d.markdown(`\n## Single tasks: leaderboard\n\n${messages.noFullScore(unjudged)}\n`);
  d.table({
    id: 'decided-leaderboard',
    title: 'Leaderboard over decided items',
    caption:
      'Mean score over decided items only (unjudged items left out of credit and weight) and success rate (%) per system, with percentile and BCa CIs. Not a score of the whole rubric.',
    table: board,
    columns: [
      { name: 'system' },
      { name: 'tasks' },
      { name: 'trials' },
      { name: 'mean', label: 'mean (decided)', digits: 2 },
      ...intervalFormats('ci', 'CI'),
      ...intervalFormats('bca', 'BCa'),
      { name: 'success_rate', label: 'success % (decided)', digits: 2 },
      ...intervalFormats('success_ci', 'succ. CI'),
    ],
  });
}

function leaderboardSection(d: DocumentBuilder, t: NonNullable<Analysis['tasks']>): void {
  const lb = rowsOf<Row & { system: string; mean: number | null }>(t.leaderboard);
  const best = lb[0];
  d.markdown(`
## Single tasks: leaderboard

${best ? `**${best.system}** has the highest mean score, ${f2(best.mean)} ${ci(best.ci_low, best.ci_high)}, with a success rate of ${f2(best.success_rate)}% ${ci(best.success_ci_low, best.success_ci_high)}.` : ''}
Overlapping intervals do not by themselves show a difference; the paired comparisons below test each pair on the same tasks.
`);
  d.table({
    id: 'leaderboard',
    title: 'Leaderboard',
    caption:
      'Mean score and success rate (%) per system, with percentile and BCa CIs; unjudged = trials without a score.',
    table: t.leaderboard,
    columns: [...LEADERBOARD_FORMATS],
  });
  d.figure(
    {
      id: 'leaderboard',
      title: 'Leaderboard (StartupBench Fig. 3)',
      caption: 'Bars: mean score and success rate; rules: percentile CIs.',
      spec: leaderboardFigure(lb as never),
    },
    ['value'],
  );
}

function scoreVsSuccessSection(d: DocumentBuilder, t: NonNullable<Analysis['tasks']>): void {
  const inv = t.scoreVsSuccess.inversions;
  d.markdown(`
### Average score vs success rate

${
  inv.length === 0
    ? 'The ranking by average score and the ranking by success rate agree.'
    : `The two rankings disagree for ${inv.length} pair(s): ${inv
        .slice(0, 6)
        .map((p) => `${p.higherMean} has the higher mean but ${p.higherSuccess} the higher success rate`)
        .join('; ')}.`
}
`);
  d.table({
    id: 'score-vs-success',
    title: 'Average score vs success rate',
    caption: 'gap = mean score − success rate (points); ranks by each.',
    table: t.scoreVsSuccess.table,
    columns: [
      { name: 'system' },
      { name: 'mean', digits: 2 },
      { name: 'success_rate', label: 'success %', digits: 2 },
      { name: 'gap', digits: 2 },
      { name: 'rank_mean' },
      { name: 'rank_success' },
    ],
  });
}

function domainSection(d: DocumentBuilder, t: NonNullable<Analysis['tasks']>, systems: string[]): void {
  const dom = rowsOf<{
    system: string;
    domain: string;
    mean: number | null;
    success_rate: number | null;
    tasks: number;
  }>(t.domains);
  const domains = [...new Set(dom.filter((r) => r.domain !== OVERALL).map((r) => r.domain))];
  d.table({
    id: 'domains',
    title: 'Domains (Table 3)',
    caption: 'Average score and success rate (%) per domain; Overall is task-weighted.',
    table: t.domains,
    columns: [
      { name: 'system' },
      { name: 'domain' },
      { name: 'tasks' },
      { name: 'scored' },
      { name: 'mean', digits: 2 },
      { name: 'success_rate', label: 'success %', digits: 2 },
    ],
  });
  d.figure(
    {
      id: 'domains',
      title: 'Average score by domain',
      caption: 'Mean score per system and domain.',
      spec: domainFigure({
        title: 'Average score by domain',
        rows: dom.map((r) => ({ system: r.system, domain: r.domain, value: r.mean })),
        domains,
        systems,
        valueTitle: 'Score',
      }),
    },
    ['value'],
  );
}

function comparisonSections(d: DocumentBuilder, t: NonNullable<Analysis['tasks']>): void {
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
  if (t.generalVsSpecialized) {
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
  const hs = t.harnessSwap;
  if (hs.harnesses.length > 1) {
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
  const pw = rowsOf<{ verdict: string }>(t.pairwise);
  if (pw.length > 0) {
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
}

function projectSections(d: DocumentBuilder, p: NonNullable<Analysis['projects']>, tables: ResultTables): void {
  const del = rowsOf<Row & { system: string }>(p.delivery);
  const gaps = del.map((r) => r.gap).filter((g): g is number => typeof g === 'number');
  d.markdown(`
## Multi-stage projects: delivery

Projects weigh equally; process = mean of a project's checkpoint scores; pass rate = checkpoints scoring at least 90
(unrounded). ${gaps.length ? `Process–final gaps range ${f1(Math.min(...gaps))}–${f1(Math.max(...gaps))} points.` : ''}
${p.belowLine.below} of ${p.belowLine.outcomes} system–project outcomes lie below the equal-score line (final < process).
`);
  d.table({
    id: 'delivery',
    title: 'Final delivery and process (DeliverBench Table 5 means)',
    caption: 'Means with project-cluster bootstrap CIs; gap = process − final on projects with both.',
    table: p.delivery,
    columns: [
      { name: 'system' },
      { name: 'projects' },
      { name: 'final_mean', label: 'final', digits: 2 },
      ...intervalFormats('final_ci', 'CI'),
      { name: 'process_mean', label: 'process', digits: 2 },
      { name: 'gap', digits: 2 },
      ...intervalFormats('gap_ci', 'gap CI'),
      { name: 'checkpoints_judged', label: 'checkpoints judged' },
      { name: 'pass_rate', label: 'pass rate %', digits: 1 },
      { name: 'below_line', label: 'below line' },
    ],
  });
  d.figure(
    {
      id: 'final-scores',
      title: 'Final-delivery scores (Fig. 5a)',
      caption: 'Mean final score with percentile CI.',
      spec: systemBarFigure({
        title: 'Final-delivery score',
        rows: barRows(del, 'final_mean', 'final_ci'),
        valueTitle: 'Final score',
        domain: [0, 100],
      }),
    },
    ['value'],
  );
  d.figure(
    {
      id: 'process-final-gap',
      title: 'Process–final gap (Fig. 5b)',
      caption: 'Process mean minus final mean, paired CI over projects.',
      spec: systemBarFigure({
        title: 'Process − final gap',
        rows: barRows(del, 'gap', 'gap_ci'),
        valueTitle: 'Points',
        color: '#72b7b2',
      }),
    },
    ['value'],
  );
  d.table({
    id: 'below-line-by-project',
    title: 'Process vs final per project',
    caption: 'Systems whose final score is below their process score, and mean gap, per project.',
    table: p.byProject,
    columns: [
      { name: 'project' },
      { name: 'outcomes' },
      { name: 'below_line', label: 'below line' },
      { name: 'mean_final', label: 'final', digits: 2 },
      { name: 'mean_process', label: 'process', digits: 2 },
      { name: 'mean_gap', label: 'gap', digits: 2 },
    ],
  });
  d.figure(
    {
      id: 'process-vs-final',
      title: 'Process vs final (Fig. 5c)',
      caption: 'One point per system–project outcome; dashed: equal-score line.',
      spec: processFinalScatter(p.outcomes, p.belowLine),
    },
    ['final', 'process'],
  );
  d.table({
    id: 'project-resources',
    title: 'Resources (Fig. 5d)',
    caption: 'Mean agent hours (model waits + tools; not setup or judging) and tokens (millions) per project.',
    table: p.resources,
    columns: resourceFormats({ units: 'projects', hoursDigits: 2, tokensDigits: 1, score: 'final' }),
  });
  d.figure(
    {
      id: 'resources-vs-score',
      title: 'Resources vs score (Fig. 5d)',
      caption: 'Per system: mean per project.',
      spec: resourcesFigure(rowsOf(p.resources) as never),
    },
    ['mean_score'],
  );
  for (const [id, table, title, fig] of [
    ['quality-profile', p.qualityProfile, 'Quality dimensions (Fig. 5e)', 'Fig. 5e'],
    ['target-profile', p.targetProfile, 'Evaluation targets (Fig. 5f)', 'Fig. 5f'],
  ] as const) {
    const rows = rowsOf<{ system: string; group: string; score: number | null; status: string }>(table);
    d.table({
      id,
      title,
      caption:
        'Signed credit / positive available weight x 100, clipped, before fatal gates, averaged over projects; unavailable = no positive weight (not 0).',
      table,
      columns: [
        { name: 'system' },
        { name: 'group' },
        { name: 'score', digits: 1 },
        { name: 'status' },
        { name: 'projects' },
        { name: 'unavailable_projects', label: 'unavailable' },
        { name: 'unjudged_projects', label: 'unjudged' },
      ],
    });
    d.figure({
      id,
      title,
      caption: `${fig}: diagnostic profiles, not additive parts of the final score.`,
      spec: heatmapFigure({
        title,
        rows: rows.map((r) => ({
          system: r.system,
          category: r.group,
          value: r.score,
          label: r.status === 'ok' ? undefined : r.status === 'unavailable' ? 'n/a' : 'unjudged',
        })),
        categoryTitle: id === 'quality-profile' ? 'Quality dimension' : 'Target',
        valueTitle: 'Score',
      }),
    });
  }
  const perProject = projectProfiles(tables.groups, 'target').filter((x) => x.value === 'unavailable');
  if (perProject.length)
    d.markdown(`${perProject.length} project–target cells have no positive weight and are marked unavailable.`);
  d.figure(
    {
      id: 'trajectories',
      title: 'Checkpoint trajectories (Fig. 9)',
      caption: 'Checkpoint scores along each project; diamonds: final delivery.',
      spec: trajectoriesFigure(rowsOf(p.trajectories) as never),
    },
    ['score'],
  );
}

/** Bar rows of a system's value with its interval columns `<ci>_low` / `<ci>_high` (Fig. 5a, 5b). */
function barRows(rows: readonly Row[], value: string, ci: string): SystemValue[] {
  return rows.map((r) => ({
    system: r.system as string,
    value: r[value] as number | null,
    low: r[`${ci}_low`] as number | null,
    high: r[`${ci}_high`] as number | null,
  }));
}
