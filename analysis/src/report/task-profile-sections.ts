// The report's single-task profiles: per domain, per rubric dimension, per importance level, and output-format
// compliance (StartupBench Tables 3-5, Fig. 4), each a table with its figure.
import type { TaskAnalysis } from '../analyze-results.js';
import { OVERALL } from '../domain-profile.js';
import { dimensionFigure, domainFigure, formatComplianceFigure, importanceFigure } from '../figures/startup-figures.js';
import { rowsOf } from '../table-helpers.js';
import { f2 } from './narrative-numbers.js';
import type { DocumentBuilder } from './report-document.js';

export function profilesIntro(d: DocumentBuilder): void {
  d.markdown(
    '## Profiles\n\nPer-domain averages pool all trials of the domain; the Overall row weights each domain by its task count (StartupBench Table 3).',
  );
}

export function domainSection(d: DocumentBuilder, t: TaskAnalysis, systems: string[]): void {
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
export function dimensionsSection(d: DocumentBuilder, t: TaskAnalysis, systems: string[]): void {
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
}

export function importanceSection(d: DocumentBuilder, t: TaskAnalysis, systems: string[]): void {
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
}

export function formatComplianceSection(d: DocumentBuilder, t: TaskAnalysis): void {
  if (t.formatCompliance.numRows() === 0) return;
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
