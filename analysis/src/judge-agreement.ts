// Judge reliability: expert labels read from a file (label-agreement.ts measures the judge against them), and
// judge setups compared with each other item by item.
import { readFile } from 'node:fs/promises';
import type { ColumnTable } from 'arquero';
import { compareVerdicts } from './compare-runs.js';
import type { ItemAgreement } from './item-agreement.js';
import type { JobResults } from './load-results.js';
import { messages } from './messages.js';
import { parseCsv } from './parse-csv.js';
import { tableOf } from './table-helpers.js';

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
