// The report's multi-stage project sections (DeliverBench Table 5, Figs. 5 and 9): final delivery against the
// process of checkpoints, per project, resources, the quality and target profiles, and the checkpoint trajectories.
import type { ProjectAnalysis } from '../analyze-results.js';
import { projectProfiles } from '../delivery-profiles.js';
import {
  processFinalScatter,
  resourcesFigure,
  systemBarFigure,
  trajectoriesFigure,
} from '../figures/deliver-figures.js';
import type { SystemValue } from '../figures/deliver-figures.js';
import { heatmapFigure } from '../figures/startup-figures.js';
import type { ResultTables } from '../results-tables.js';
import { rowsOf } from '../table-helpers.js';
import type { Row } from '../table-helpers.js';
import { intervalFormats, resourceFormats } from './column-formats.js';
import { f1 } from './narrative-numbers.js';
import type { DocumentBuilder } from './report-document.js';

export function projectSections(d: DocumentBuilder, p: ProjectAnalysis, tables: ResultTables): void {
  deliverySection(d, p);
  processVsFinalSection(d, p);
  projectResourcesSection(d, p);
  projectProfilesSection(d, p, tables);
  trajectoriesSection(d, p);
}

function deliverySection(d: DocumentBuilder, p: ProjectAnalysis): void {
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
}

function processVsFinalSection(d: DocumentBuilder, p: ProjectAnalysis): void {
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
}

function projectResourcesSection(d: DocumentBuilder, p: ProjectAnalysis): void {
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
}

function projectProfilesSection(d: DocumentBuilder, p: ProjectAnalysis, tables: ResultTables): void {
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
}

function trajectoriesSection(d: DocumentBuilder, p: ProjectAnalysis): void {
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
