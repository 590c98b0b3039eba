// Judge reliability: agreement of the judge's binary decisions with expert labels
// (or with another judge setup), pooled and per group (e.g. per target), as raw
// agreement and Cohen's kappa. Unjudged decisions are left out and counted.
import { readFile } from 'node:fs/promises';
import type { ColumnTable } from 'arquero';
import { cohenKappa } from './cohen-kappa.js';
import { compareVerdicts } from './compare-runs.js';
import type { ItemAgreement } from './item-agreement.js';
import type { JobResults } from './load-results.js';
import { messages } from './messages.js';
import { parseCsv } from './parse-csv.js';
import { groupBy, rowsOf, tableOf } from './table-helpers.js';

/**
 * Expert labels, CSV with header `system,unit,trial,item,label` (+ optional `scope`):
 * unit = task or project id; item = rubric item or criterion id; scope = empty for task
 * rubric items, `final` or a subtask id for project criteria; label = 1/0, true/false,
 * satisfied/not-satisfied, met/not-met.
 */
export async function loadHumanLabels(file: string): Promise<ColumnTable> {
  const text = await readFile(file, 'utf8');
  const lines = parseCsv(text);
  const header = (lines[0] ?? []).map((h) => h.trim());
  for (const col of ['system', 'unit', 'trial', 'item', 'label']) {
    if (!header.includes(col)) throw new Error(messages.labelsInvalid(file, 1, `missing column "${col}"`));
  }
  const rows = lines.slice(1).map((line, i) => {
    const cells = line.map((c) => c.trim());
    const rec = Object.fromEntries(header.map((h, j) => [h, cells[j] ?? '']));
    const label = parseLabel(rec.label ?? '');
    if (label === null)
      throw new Error(
        messages.labelsInvalid(
          file,
          i + 2,
          `label "${rec.label}" is not 1/0, true/false, satisfied/not-satisfied or met/not-met`,
        ),
      );
    return {
      system: rec.system,
      unit: rec.unit,
      trial: Number(rec.trial),
      item: rec.item,
      scope: rec.scope || null,
      human: label,
    };
  });
  return tableOf(rows, ['system', 'unit', 'trial', 'item', 'scope', 'human']);
}

function parseLabel(s: string): 0 | 1 | null {
  const v = s.toLowerCase();
  if (['1', 'true', 'satisfied', 'met', 'yes'].includes(v)) return 1;
  if (['0', 'false', 'not-satisfied', 'not-met', 'no'].includes(v)) return 0;
  return null;
}

/**
 * Join judge decisions with labels. `decisions` is the verdicts table (units = tasks) or
 * the criteria table (units = projects); both carry the decision as `satisfied` (1/0/null).
 * Result columns: system, unit, trial, item, scope, group, judge (0/1/null), human (0/1).
 */
export function agreementPairs(decisions: ColumnTable, labels: ColumnTable, groupColumn?: string): ColumnTable {
  const names = decisions.columnNames();
  const isProject = names.includes('project');
  // The judge's own decision (before dependency resolution), as the experts labelled it.
  const valueCol = 'satisfied';
  const rows = rowsOf<Record<string, unknown>>(decisions);
  const index = new Map<string, Record<string, unknown>>();
  for (const r of rows) {
    const unit = isProject ? r.project : r.task;
    const item = isProject ? r.criterion : r.item;
    const scope = isProject ? (r.scope === 'final' ? 'final' : r.subtask) : null;
    index.set(key(r.system, unit, r.trial, item, scope), r);
  }
  const out = rowsOf<{
    system: string;
    unit: string;
    trial: number;
    item: string;
    scope: string | null;
    human: number;
  }>(labels).map((l) => {
    const scope = isProject ? l.scope : null;
    const d = index.get(key(l.system, l.unit, l.trial, l.item, scope));
    return {
      system: l.system,
      unit: l.unit,
      trial: l.trial,
      item: l.item,
      scope,
      matched: d !== undefined,
      group: d && groupColumn ? (d[groupColumn] ?? null) : null,
      judge: d ? (d[valueCol] ?? null) : null,
      human: l.human,
    };
  });
  return tableOf(out, ['system', 'unit', 'trial', 'item', 'scope', 'matched', 'group', 'judge', 'human']);
}

function key(...parts: unknown[]): string {
  return parts.map((p) => String(p ?? '')).join('\u0000');
}

/**
 * Pooled row ("all") plus one row per group: n decided pairs, agree, raw agreement (%),
 * Cohen's kappa; `unjudged` = labelled items the judge left undecided; `unmatched` =
 * labels with no decision record at all.
 */
export function judgeAgreement(pairs: ColumnTable): ColumnTable {
  const all = rowsOf<{ matched: boolean; group: string | null; judge: number | null; human: number }>(
    pairs.select('matched', 'group', 'judge', 'human'),
  );
  const rows = all.filter((r) => r.matched);
  const summarize = (group: string, list: typeof rows, unmatched: number) => {
    const decided = list.filter((r) => r.judge === 0 || r.judge === 1);
    const a = cohenKappa(
      decided.map((r) => r.judge === 1),
      decided.map((r) => r.human === 1),
    );
    return {
      group,
      n: a.n,
      agree: a.agree,
      agreement: a.raw === null ? null : 100 * a.raw,
      kappa: a.kappa,
      unjudged: list.length - decided.length,
      unmatched,
    };
  };
  const out = [summarize('all', rows, all.length - rows.length)];
  const grouped = groupBy(
    rows.filter((r) => r.group !== null),
    (r) => String(r.group),
  );
  if (grouped.size > 1) for (const [g, list] of grouped) out.push(summarize(g, list, 0));
  return tableOf(out, ['group', 'n', 'agree', 'agreement', 'kappa', 'unjudged', 'unmatched']);
}

/**
 * Judge-setup ablation: jobs that judged the same systems, tasks and trials (e.g. per-item vs holistic judging)
 * compared pairwise, item by item, as `assay compare` compares them (compareVerdicts): a row per pair of jobs
 * and system pair, `all` pooled first when a pair of jobs has several. Pairs of jobs with no system in common,
 * or no item decided on both sides, are left out.
 */
export function judgeSetupAgreement(jobs: readonly JobResults[]): ColumnTable {
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; i < jobs.length; i++) {
    for (let j = i + 1; j < jobs.length; j++) {
      const [a, b] = [jobs[i]!, jobs[j]!];
      let agreement: ItemAgreement[];
      try {
        agreement = compareVerdicts(a, b).agreement;
      } catch {
        continue; // nothing in common to compare
      }
      if (agreement.every((g) => g.n === 0)) continue;
      for (const g of agreement)
        rows.push({
          a: a.jobId,
          b: b.jobId,
          system: g.system,
          n: g.n,
          agree: g.agree,
          agreement: g.agreement,
          kappa: g.kappa,
          decided_a_only: g.decidedAOnly,
          decided_b_only: g.decidedBOnly,
        });
    }
  }
  return tableOf(rows, ['a', 'b', 'system', 'n', 'agree', 'agreement', 'kappa', 'decided_a_only', 'decided_b_only']);
}
