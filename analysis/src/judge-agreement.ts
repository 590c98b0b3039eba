// Judge setups compared with each other item by item (expert labels: load-human-labels.ts, label-agreement.ts).
import type { ColumnTable } from 'arquero';
import { compareVerdicts } from './compare-runs.js';
import type { ItemAgreement } from './item-agreement.js';
import type { JobResults } from './load-results.js';
import { tableOf } from './table-helpers.js';

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
