// What a re-judging run decided, reduced to what must not change between checkouts: per judge
// setup and unit, every item's decision, source and reason, and the scores.
import path from 'node:path';
import { projectTrialKey, trialKey } from '@assay/core';
import { openResultsStore, readProjectRecords, readTrialRecords } from '@assay/results';

export interface JudgedDigest {
  units: { trials: number; projects: number };
  /** `<setup>/<unit>` → the unit's decisions as one comparable string. */
  byUnit: Map<string, string>;
}

export async function readJudged(resultsDir: string, setups: readonly string[]): Promise<JudgedDigest> {
  const byUnit = new Map<string, string>();
  let trials = 0;
  let projects = 0;
  for (const name of setups) {
    const store = openResultsStore(path.join(resultsDir, 'judges', name));
    for (const r of await readTrialRecords(store, { problems: [] })) {
      const verdicts = r.verdicts.map((v) => [v.itemId, v.decision, v.source, v.reason]);
      byUnit.set(`${name}/${trialKey(r.system.id, r.task.id, r.trial)}`, JSON.stringify([verdicts, r.score]));
      if (name === setups[0]) trials++;
    }
    for (const r of await readProjectRecords(store, { problems: [] })) {
      const of = (vs: typeof r.final.verdicts) => vs.map((v) => [v.criterionId, v.decision, v.source, v.reason]);
      const checkpoints = r.checkpoints.map((c) => [c.subtaskId, of(c.verdicts), c.score]);
      const digest = [checkpoints, of(r.final.verdicts), r.final.score, r.process.score];
      byUnit.set(`${name}/${projectTrialKey(r.system.id, r.project.id, r.trial)}`, JSON.stringify(digest));
      if (name === setups[0]) projects++;
    }
  }
  return { units: { trials, projects }, byUnit };
}

/** Units whose decisions differ from the reference run's, or that one of the runs lacks. */
export function verdictDifferences(reference: JudgedDigest, other: JudgedDigest): string[] {
  const out: string[] = [];
  for (const [unit, want] of reference.byUnit) {
    const got = other.byUnit.get(unit);
    if (got === undefined) out.push(`${unit}: not judged`);
    else if (got !== want) out.push(`${unit}: verdicts differ`);
  }
  for (const unit of other.byUnit.keys()) if (!reference.byUnit.has(unit)) out.push(`${unit}: judged only here`);
  return out;
}
