// The agreement page: a job's judge and each judge setup re-judged under it (`judges/<name>`) against the
// labels people made (their reviews, and `human-labels.csv` beside a local job as `assay report` picks it up),
// and reviewers against each other. The numbers come from @assay/analysis's labelAgreement and
// reviewerAgreement over the records as the report loads them (split by content version), with the report's
// default seed, so the page and `assay report` of the same job print the same values.
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  judgedSetupOf,
  labelAgreement,
  labelsFromReviews,
  loadHumanLabels,
  reviewerAgreement,
  type JudgedSetup,
} from '@assay/analysis';
import { splitByVersion } from '@assay/core';
import { readReviews, type RecordProblem } from '@assay/results';
import { NotFoundError } from './build-trial-detail.js';
import { messages } from './messages.js';
import { readSourceRecords } from './read-source-records.js';
import { isUrl } from './resolve-sources.js';
import { reviewStore } from './review-store.js';
import type { ViewerSource } from './viewer-source.js';

/** The name `assay report` gives a setup: the job's id, `+judge:<name>` for a re-judged one. */
const setupName = (root: ViewerSource, s: ViewerSource) =>
  s.judge === null ? root.label : `${root.label}+judge:${s.judge}`;

export async function buildAgreement(sources: readonly ViewerSource[], id: string) {
  const rootId = id.split('.')[0] ?? id;
  const root = sources.find((s) => s.id === rootId && s.judge === null);
  if (!root) throw new NotFoundError(messages.unknownSource(id));
  const setups = sources.filter((s) => s === root || (s.judge !== null && s.id.startsWith(`${root.id}.`)));
  const problems: RecordProblem[] = [];
  const reviews = await readReviews(reviewStore(root), problems);
  const fromReviews = labelsFromReviews(reviews, (await readSourceRecords(root)).lock);
  let labels = fromReviews.labels;
  const file = isUrl(root.dir) ? null : path.join(root.dir, 'human-labels.csv');
  if (file && existsSync(file)) labels = labels.concat(await loadHumanLabels(file));
  const judged: JudgedSetup[] = [];
  for (const s of setups) {
    const records = await readSourceRecords(s);
    const trials = splitByVersion(records.trials, records.lock).records;
    const projects = splitByVersion(records.projects, records.lock).records;
    judged.push(judgedSetupOf(setupName(root, s), trials, projects));
  }
  const agreement = labels.numRows() > 0 ? labelAgreement(judged, labels) : null;
  const sourceOf = new Map(setups.map((s) => [setupName(root, s), s.id]));
  const reviewers = reviewerAgreement(fromReviews.current);
  return {
    source: root.id,
    label: root.label,
    setups: setups.map((s) => ({ name: setupName(root, s), source: s.id })),
    reviews: { items: fromReviews.items, labelled: fromReviews.labelled, stale: fromReviews.stale },
    labelFile: file && existsSync(file) ? path.basename(file) : null,
    rows: agreement ? (agreement.rows.objects() as AgreementRow[]) : [],
    disagreements: agreement
      ? (agreement.disagreements.objects() as Omit<Disagreement, 'source'>[]).map((d) => ({
          ...d,
          source: sourceOf.get(d.setup) ?? root.id,
        }))
      : [],
    reviewers: reviewers ? (reviewers.objects() as ReviewerRow[]) : [],
    problems: problems.map((p) => `${p.key}: ${p.message}`),
  };
}

type Num = number | null;
interface AgreementRow {
  setup: string;
  kind: 'task' | 'project';
  by: string;
  group: string;
  n: number;
  agree: number;
  agreement: Num;
  kappa: Num;
  kappa_low: Num;
  kappa_high: Num;
  both_satisfied: number;
  judge_only: number;
  human_only: number;
  both_not: number;
  unjudged: number;
  unmatched: number;
}
export interface Disagreement {
  setup: string;
  source: string;
  kind: 'task' | 'project';
  system: string;
  unit: string;
  trial: number;
  item: string;
  scope: string | null;
  judge: 0 | 1;
  human: 0 | 1;
}
interface ReviewerRow {
  a: string;
  b: string;
  shared: number;
  n: number;
  agree: number;
  agreement: Num;
  kappa: Num;
  kappa_low: Num;
  kappa_high: Num;
  cant_tell: number;
}
