// `assay reproduce --out DIR`: the check table and the papers' figures re-drawn from
// the published data with the same figure code as a user's report.
import { DOMAIN_LABELS } from '@assay/core';
import { belowEqualScoreLine, deliveryMeans } from '../delivery-summary.js';
import { OVERALL } from '../domain-profile.js';
import { figure } from '../figures/figure-config.js';
import { processFinalScatter, systemBarFigure } from '../figures/deliver-figures.js';
import {
  dimensionFigure,
  domainFigure,
  formatComplianceFigure,
  harnessSwapFigure,
  importanceFigure,
  leaderboardFigure,
} from '../figures/startup-figures.js';
import { summarizeHarnessSwap } from '../harness-swap.js';
import { loadPublished, resolvePublishedDir } from '../published-data.js';
import type { PublishedData } from '../published-data.js';
import { deliverOutcomes, reproduceFrom, reproduceTable } from '../reproduce-published.js';
import type { ReproduceRow } from '../reproduce-published.js';
import { rowsOf, tableOf } from '../table-helpers.js';
import { harnessSwapFormats } from './column-formats.js';
import { DocumentBuilder } from './report-document.js';
import type { ReportDocument } from './report-document.js';
import { writeDocument } from './write-document.js';
import type { WrittenReport } from './write-document.js';

function buildReproduceDocument(publishedDir?: string): ReportDocument {
  const data = loadPublished(resolvePublishedDir(publishedDir));
  const rows = reproduceFrom(data);
  const matched = rows.filter((r) => r.match).length;
  const d = new DocumentBuilder();
  addCheckTable(d, data.dir, rows, matched);
  addStartupSection(d, data);
  addDeliverSection(d, data);
  return {
    title: 'assay reproduce: published StartupBench and DeliverBench figures',
    meta: { 'published data': data.dir, matched: `${matched} of ${rows.length}` },
    blocks: d.blocks,
  };
}

function addCheckTable(d: DocumentBuilder, dir: string, rows: readonly ReproduceRow[], matched: number): void {
  d.markdown(`
## Reproducing the published figures

Every value below is printed in one of the two papers and is implied by the published per-cell data in \`${dir}\`.
It is recomputed here with the same functions that analyse a user's own runs, then rounded to the printed precision.
**${matched} of ${rows.length}** values match.

Bootstrap CIs, oracle best-of-k, checkpoint trajectories, resources and the DeliverBench profiles need per-trial
records, which the papers do not publish; they appear in reports on your own runs (\`assay report\`).
`);
  d.table({
    id: 'reproduce',
    title: 'Published vs recomputed',
    caption: 'Recomputed from the published CSVs; match = equal at the printed precision.',
    table: reproduceTable(rows),
    columns: [
      { name: 'benchmark' },
      { name: 'quantity' },
      { name: 'printed', label: 'published' },
      { name: 'recomputed', digits: 4 },
      { name: 'rounded' },
      { name: 'match' },
      { name: 'source' },
    ],
  });
}

interface Table3Row {
  model: string;
  domain: string;
  avg_score: number;
  success_rate_pct: number;
}

function addStartupSection(d: DocumentBuilder, data: PublishedData): void {
  const t3 = rowsOf<Table3Row>(data.startupTable3);
  const overall = t3.filter((r) => r.domain === OVERALL);
  const models = [...overall].sort((a, b) => b.avg_score - a.avg_score).map((r) => r.model);
  d.markdown('## StartupBench');
  addStartupLeaderboard(d, overall);
  addDomainFigures(d, t3, models);
  addRubricFigures(d, data, models);
  addHarnessSwap(d, data);
  addGeneralVsSpecialized(d, data);
}

function addStartupLeaderboard(d: DocumentBuilder, overall: readonly Table3Row[]): void {
  d.figure({
    id: 'startup-leaderboard',
    title: 'Leaderboard (Fig. 3)',
    caption:
      'Average score and success rate from Table 3 Overall. The published data has no per-trial scores, so no CI bars are drawn here.',
    spec: leaderboardFigure(
      overall.map((r) => ({ system: r.model, mean: r.avg_score, success_rate: r.success_rate_pct })),
      'Published Table 3 Overall (no per-trial data: no CIs)',
    ),
  });
}

function addDomainFigures(d: DocumentBuilder, t3: readonly Table3Row[], models: string[]): void {
  const domains = Object.values(DOMAIN_LABELS);
  d.figure({
    id: 'startup-domains',
    title: 'Average score by domain (Table 3)',
    caption: 'Importance-weighted mean task score per domain.',
    spec: domainFigure({
      title: 'Average score by domain',
      rows: t3.map((r) => ({ system: r.model, domain: r.domain, value: r.avg_score })),
      domains,
      systems: models,
      valueTitle: 'Score',
    }),
  });
  d.figure({
    id: 'startup-domain-success',
    title: 'Success rate by domain (Table 3)',
    caption: 'Share of runs scoring at least 90, pooled over three runs (%).',
    spec: domainFigure({
      title: 'Success rate by domain',
      rows: t3.map((r) => ({ system: r.model, domain: r.domain, value: r.success_rate_pct })),
      domains,
      systems: models,
      valueTitle: 'Success, %',
    }),
  });
}

/** Fig. 4, Table 4 and Table 5: what the models satisfy, by dimension, importance and output format. */
function addRubricFigures(d: DocumentBuilder, data: PublishedData, models: string[]): void {
  d.figure({
    id: 'startup-dimensions',
    title: 'Rubric dimensions (Fig. 4)',
    caption: 'Importance-weighted pass rate per rubric dimension (%).',
    spec: dimensionFigure(
      rowsOf<{ model: string; dimension: string; weighted_pass_rate_pct: number }>(data.startupFigure4).map((r) => ({
        system: r.model,
        dimension: r.dimension,
        value: r.weighted_pass_rate_pct,
      })),
      models,
    ),
  });
  d.figure({
    id: 'startup-importance',
    title: 'Importance levels (Table 4)',
    caption: 'Satisfaction rate per importance level.',
    spec: importanceFigure(
      rowsOf<{ model: string; level: string; satisfaction_pct: number }>(data.startupTable4).map((r) => ({
        system: r.model,
        level: r.level,
        satisfaction: r.satisfaction_pct,
      })),
      models,
    ),
  });
  d.figure({
    id: 'startup-format',
    title: 'Output-format compliance (Table 5)',
    caption: 'On the 56 tasks with explicit output-file requirements.',
    spec: formatComplianceFigure(
      rowsOf<{ model: string; compliance_pct: number }>(data.startupTable5).map((r) => ({
        system: r.model,
        compliance: r.compliance_pct,
      })),
    ),
  });
}

function addHarnessSwap(d: DocumentBuilder, data: PublishedData): void {
  const swap = summarizeHarnessSwap(rowsOf<{ model: string; harness: string; avg_score: number }>(data.startupTable6));
  d.table({
    id: 'startup-harness-swap',
    title: 'Harness swap (Table 6)',
    caption: 'Recomputed Average row and Max–Min from the published cells.',
    table: swap.wide,
    columns: harnessSwapFormats(swap.wide),
  });
  d.figure({
    id: 'startup-harness-swap',
    title: 'Harness swap (Table 6)',
    caption: `Kendall tau between harness rankings: ${swap.taus.map((t) => `${t.a}/${t.b} ${t.tau?.toFixed(2) ?? '—'}`).join(', ')}.`,
    spec: harnessSwapFigure(rowsOf(swap.means) as { model: string; harness: string; avg_score: number | null }[]),
  });
}

function addGeneralVsSpecialized(d: DocumentBuilder, data: PublishedData): void {
  const t7 = rowsOf<{ agent_system: string; avg_score: number; success_rate_pct: number }>(data.startupTable7);
  d.figure({
    id: 'startup-general-vs-specialized',
    title: 'General vs specialized (Table 7)',
    caption: 'All-runs average, oracle best-of-three and the specialized agents.',
    spec: figure('General vs specialized agents', 'Average score (bars) as published in Table 7', {
      data: { values: t7 },
      width: 300,
      height: { step: 28 },
      encoding: {
        y: { field: 'agent_system', type: 'nominal', title: null, sort: null },
        x: { field: 'avg_score', type: 'quantitative', title: 'Average score', scale: { domain: [0, 100] } },
      },
      layer: [
        { mark: { type: 'bar', color: '#4c78a8' } },
        {
          mark: { type: 'text', align: 'left', dx: 4, fontSize: 10 },
          encoding: { text: { field: 'avg_score', format: '.2f' } },
        },
      ],
    }),
  });
}

function addDeliverSection(d: DocumentBuilder, data: PublishedData): void {
  const outcomes = deliverOutcomes(data);
  const means = deliveryMeans(outcomes);
  const line = belowEqualScoreLine(outcomes);
  d.markdown(
    `## DeliverBench\n\n${line.below} of ${line.outcomes} system–project outcomes lie below the equal-score line (final < process).`,
  );
  d.table({
    id: 'deliver-means',
    title: 'Final-delivery and process means (Table 5 Mean rows)',
    caption: 'Projects weighted equally; gap = process − final.',
    table: tableOf(means, ['system', 'final', 'process', 'gap']),
    columns: [
      { name: 'system' },
      { name: 'final', digits: 2 },
      { name: 'process', digits: 2 },
      { name: 'gap', digits: 2 },
    ],
  });
  addDeliverFigures(d, means);
  d.figure({
    id: 'deliver-scatter',
    title: 'Process vs final (Fig. 5c)',
    caption: 'One point per system–project outcome; the dashed line is final = process.',
    spec: processFinalScatter(outcomes, line),
  });
}

/** Fig. 5a and 5b: one bar per system. */
function addDeliverFigures(d: DocumentBuilder, means: ReturnType<typeof deliveryMeans>): void {
  d.figure({
    id: 'deliver-final',
    title: 'Final-delivery scores (Fig. 5a)',
    caption: 'Mean over 11 projects.',
    spec: systemBarFigure({
      title: 'Final-delivery score',
      rows: means.map((m) => ({ system: m.system, value: m.final })),
      valueTitle: 'Final score',
      domain: [0, 100],
    }),
  });
  d.figure({
    id: 'deliver-gap',
    title: 'Process–final gap (Fig. 5b)',
    caption: 'Process mean minus final-delivery mean.',
    spec: systemBarFigure({
      title: 'Process − final gap',
      rows: means.map((m) => ({ system: m.system, value: m.gap })),
      valueTitle: 'Points',
      color: '#72b7b2',
    }),
  });
}

export async function writeReproduceReport(options: { publishedDir?: string; outDir: string }): Promise<WrittenReport> {
  return writeDocument(buildReproduceDocument(options.publishedDir), options.outDir);
}
