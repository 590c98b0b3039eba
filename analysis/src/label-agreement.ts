// How far the judge agrees with people's labels, per judge setup: the job's own verdicts and each re-judged
// setup (`judges/<name>`) against the same labels, pooled and per system, importance or target, and dimension.
// Each row has raw agreement, Cohen's kappa with a bootstrap interval (kappa-interval.ts), the confusion table
// and the labelled items the judge left unjudged; the disagreements are listed item by item. The report and
// the viewer both call this, so they print the same numbers for the same labels.
import type { ProjectRecord, TrialRecord } from '@assay/core';
import type { ColumnTable } from 'arquero';
import { cohenKappa } from './cohen-kappa.js';
import { kappaInterval, type KappaIntervalOptions } from './kappa-interval.js';
import { fromProjectRecords, fromTrialRecords } from './results-tables.js';
import { groupBy, rowsOf, tableOf } from './table-helpers.js';

/** One judge setup's decisions (a results folder, or a re-judged one), named as the report names the job. */
export interface JudgedSetup {
  setup: string;
  /** Its verdicts and criteria tables (results-tables.ts). */
  verdicts: ColumnTable;
  criteria: ColumnTable;
}

/** A setup from its records. */
export function judgedSetupOf(
  setup: string,
  trials: readonly TrialRecord[],
  projects: readonly ProjectRecord[],
): JudgedSetup {
  return { setup, verdicts: fromTrialRecords(trials).verdicts, criteria: fromProjectRecords(projects).criteria };
}

type DecisionKind = 'task' | 'project';

/** A label beside the judge's decision on the same item (judge null: unjudged or no record). */
interface LabelPair {
  setup: string;
  kind: DecisionKind;
  system: string;
  unit: string;
  trial: number;
  item: string;
  scope: string | null;
  /** importance (task items) or target (project criteria), and the dimension. */
  level: string | null;
  dimension: string | null;
  matched: boolean;
  judge: 0 | 1 | null;
  human: 0 | 1;
}

export interface LabelAgreement {
  /** setup, kind, by (all | system | importance | target | dimension), group, then the AGREEMENT_COLUMNS. */
  rows: ColumnTable;
  /** Items the judge decided one way and the label the other, with what opens them. */
  disagreements: ColumnTable;
}

const AGREEMENT_COLUMNS = [
  'n',
  'agree',
  'agreement',
  'kappa',
  'kappa_low',
  'kappa_high',
  'both_satisfied',
  'judge_only',
  'human_only',
  'both_not',
  'unjudged',
  'unmatched',
] as const;

const key = (...parts: unknown[]) => parts.map((p) => String(p ?? '')).join('\u0000');

/** The labels (columns system, unit, trial, item, scope, human) paired with one setup's decisions. */
function labelPairs(setup: JudgedSetup, labels: ColumnTable): LabelPair[] {
  const decisions = new Map<string, Record<string, unknown>>();
  for (const v of rowsOf<Record<string, unknown>>(setup.verdicts))
    decisions.set(key('task', v.system, v.task, v.trial, v.item, null), v);
  for (const c of rowsOf<Record<string, unknown>>(setup.criteria))
    decisions.set(
      key('project', c.system, c.project, c.trial, c.criterion, c.scope === 'final' ? 'final' : c.subtask),
      c,
    );
  type Label = { system: string; unit: string; trial: number; item: string; scope: string | null; human: 0 | 1 };
  return rowsOf<Label>(labels).map((l) => {
    const kind: DecisionKind = l.scope === null ? 'task' : 'project';
    const d = decisions.get(key(kind, l.system, l.unit, l.trial, l.item, l.scope));
    const satisfied = d?.satisfied;
    return {
      setup: setup.setup,
      kind,
      ...{ system: l.system, unit: l.unit, trial: l.trial, item: l.item, scope: l.scope },
      level: (d?.[kind === 'task' ? 'importance' : 'target'] as string | undefined) ?? null,
      dimension: (d?.dimension as string | undefined) ?? null,
      matched: d !== undefined,
      judge: satisfied === 1 || satisfied === 0 ? satisfied : null,
      human: l.human,
    };
  });
}

/** Agreement of each setup's decisions with the labels; null when no label matched any decision. */
export function labelAgreement(
  setups: readonly JudgedSetup[],
  labels: ColumnTable,
  options: KappaIntervalOptions = {},
): LabelAgreement | null {
  const pairs = setups.flatMap((s) => labelPairs(s, labels));
  if (!pairs.some((p) => p.matched)) return null;
  const rows: Record<string, unknown>[] = [];
  for (const [, ofSetup] of groupBy(pairs, (p) => key(p.setup, p.kind))) {
    const { setup, kind } = ofSetup[0]!;
    const matched = ofSetup.filter((p) => p.matched);
    if (matched.length === 0) continue;
    const head = { setup, kind };
    rows.push({
      ...head,
      by: 'all',
      group: 'all',
      ...summarize(matched, options),
      unmatched: ofSetup.length - matched.length,
    });
    const dims: [string, (p: LabelPair) => string | null][] = [
      ['system', (p) => p.system],
      [kind === 'task' ? 'importance' : 'target', (p) => p.level],
      ['dimension', (p) => p.dimension],
    ];
    for (const [by, of] of dims) {
      const groups = groupBy(
        matched.filter((p) => of(p) !== null),
        (p) => of(p)!,
      );
      for (const [group, list] of [...groups].sort(([a], [b]) => a.localeCompare(b)))
        rows.push({ ...head, by, group, ...summarize(list, options), unmatched: 0 });
    }
  }
  const disagreements = pairs
    .filter((p) => p.judge !== null && p.judge !== p.human)
    .map(({ setup, kind, system, unit, trial, item, scope, judge, human }) => ({
      ...{ setup, kind, system, unit, trial, item, scope, judge, human },
    }));
  return {
    rows: tableOf(rows, ['setup', 'kind', 'by', 'group', ...AGREEMENT_COLUMNS]),
    disagreements: tableOf(disagreements, [
      'setup',
      'kind',
      'system',
      'unit',
      'trial',
      'item',
      'scope',
      'judge',
      'human',
    ]),
  };
}

/** The statistics of one group of matched pairs (those the judge decided; the rest are counted unjudged). */
function summarize(pairs: readonly LabelPair[], options: KappaIntervalOptions) {
  const decided = pairs.filter((p) => p.judge !== null);
  const judge = decided.map((p) => p.judge === 1);
  const human = decided.map((p) => p.human === 1);
  const a = cohenKappa(judge, human);
  const ci = kappaInterval(judge, human, options);
  return {
    n: a.n,
    agree: a.agree,
    agreement: a.raw === null ? null : 100 * a.raw,
    kappa: a.kappa,
    kappa_low: ci?.low ?? null,
    kappa_high: ci?.high ?? null,
    both_satisfied: a.table.both1,
    judge_only: a.table.aOnly,
    human_only: a.table.bOnly,
    both_not: a.table.both0,
    unjudged: pairs.length - decided.length,
  };
}
