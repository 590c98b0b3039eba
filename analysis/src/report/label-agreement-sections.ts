// The report's judge-agreement sections: each judge setup against people's labels (reviews made in the viewer,
// and label files), pooled and broken down, then people against each other. The numbers are label-agreement.ts's
// and reviewer-agreement.ts's, the same the viewer's agreement page shows.
import * as aq from 'arquero';
import type { Analysis } from '../analyze-results.js';
import { rowsOf } from '../table-helpers.js';
import { AGREEMENT_FORMATS, intervalFormats } from './column-formats.js';
import type { DocumentBuilder } from './report-document.js';

const KINDS = [
  { kind: 'task', id: 'agreement-tasks', scope: 'single tasks', decisions: 'rubric item', level: 'importance level' },
  { kind: 'project', id: 'agreement-projects', scope: 'projects', decisions: 'criterion', level: 'target' },
] as const;

const CONFUSION_FORMATS = [
  { name: 'both_satisfied', label: 'both satisfied' },
  { name: 'judge_only', label: 'judge only satisfied' },
  { name: 'human_only', label: 'label only satisfied' },
  { name: 'both_not', label: 'both not satisfied' },
];

export function labelAgreementSections(d: DocumentBuilder, analysis: Analysis): void {
  const agreement = analysis.labelAgreement;
  if (agreement) {
    for (const k of KINDS) {
      const rows = agreement.rows.filter(aq.escape((r: { kind: string }) => r.kind === k.kind));
      if (rows.numRows() === 0) continue;
      const disagreements = rowsOf(agreement.disagreements).filter((r) => r.kind === k.kind).length;
      d.markdown(
        `## Judge agreement (${k.scope})\n\nAgreement of each judge setup with people's labels on binary ${k.decisions} decisions, pooled (all) and per system, ${k.level} and dimension; ${disagreements} labelled decision${disagreements === 1 ? '' : 's'} where judge and label differ (listed in \`assay view\`, page Agreement).`,
      );
      d.table({
        id: k.id,
        title: 'Judge agreement with labels',
        caption:
          'Raw agreement (%) and Cohen’s kappa with a 95% bootstrap interval over labelled items; the confusion table of judge against label; unjudged = labelled items the judge left undecided; unmatched = labels with no decision in that setup.',
        table: rows,
        columns: [
          { name: 'setup' },
          { name: 'by' },
          { name: 'group' },
          ...AGREEMENT_FORMATS.filter((c) => c.name !== 'unjudged'),
          ...intervalFormats('kappa', 'kappa', 3),
          ...CONFUSION_FORMATS,
          { name: 'unjudged' },
          { name: 'unmatched' },
        ],
      });
    }
  }
  if (analysis.reviewerAgreement) {
    d.markdown(
      '## Agreement between reviewers\n\nEach pair of reviewers on the items both reviewed and decided (a "can\'t tell" from either is counted apart).',
    );
    d.table({
      id: 'agreement-reviewers',
      title: 'Inter-rater agreement',
      caption: 'Raw agreement (%) and Cohen’s kappa with a 95% bootstrap interval over shared items.',
      table: analysis.reviewerAgreement,
      columns: [
        { name: 'a' },
        { name: 'b' },
        { name: 'shared' },
        ...AGREEMENT_FORMATS.filter((c) => c.name !== 'unjudged'),
        ...intervalFormats('kappa', 'kappa', 3),
        { name: 'cant_tell', label: "can't tell" },
      ],
    });
  }
}
