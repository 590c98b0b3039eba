// A label file's rows as people's reviews (assay.review/v1), checked whole against the job's records and lock:
// a task's rubric item (no scope), or a project's criterion at a checkpoint (scope: its subtask id) or in the
// final package (scope: final). Each review pins the item's digest as the job lock has it now; the first row
// naming a record, item or version the job does not have is refused by file, line and field.
import {
  lockedItemDigests,
  projectUnitKey,
  taskUnitKey,
  type JobLock,
  type ProjectRecord,
  type TrialRecord,
} from '@assay/core';
import type { NewReview } from '@assay/results';
import { CliError } from './cli-error.js';
import { messages } from './messages.js';

/** A row of a label file, as loadHumanLabels reads it. */
export interface LabelRow {
  system: string;
  unit: string;
  trial: number;
  item: string;
  scope: string | null;
  human: number;
}

export function reviewsFromLabels(
  rows: readonly LabelRow[],
  o: {
    trials: readonly TrialRecord[];
    projects: readonly ProjectRecord[];
    lock: JobLock | null;
    reviewer: string;
    /** The label file, named in errors and in each review's note. */
    file: string;
    resultsDir: string;
  },
): NewReview[] {
  const trialBy = new Map(o.trials.map((r) => [`${r.system.id}/${r.task.id}/${r.trial}`, r]));
  const projectBy = new Map(o.projects.map((r) => [`${r.system.id}/${r.project.id}/${r.trial}`, r]));
  return rows.map((row, i) => {
    const where = `${o.file}:${i + 2}`;
    const refuse = (field: string, why: string) => new CliError(messages.labelRefused(where, field, why));
    const id = `${row.system}/${row.unit}/${row.trial}`;
    // A task's rubric item, or a project's criterion at a checkpoint (scope: its subtask) or the final package.
    let judgeDecision: NewReview['judgeDecision'] | undefined;
    let unit: string;
    let lockedId: string;
    if (row.scope === null) {
      const record = trialBy.get(id);
      if (!record) throw refuse('system/unit/trial', `no trial record ${id} in ${o.resultsDir}`);
      judgeDecision = record.verdicts.find((v) => v.itemId === row.item)?.decision;
      if (!judgeDecision) throw refuse('item', `${row.unit} has no rubric item "${row.item}"`);
      [unit, lockedId] = [taskUnitKey(row.unit), row.item];
    } else {
      const record = projectBy.get(id);
      if (!record) throw refuse('system/unit/trial', `no project record ${id} in ${o.resultsDir}`);
      const verdicts =
        row.scope === 'final'
          ? record.final.verdicts
          : record.checkpoints.filter((c) => c.subtaskId === row.scope).flatMap((c) => c.verdicts);
      judgeDecision = verdicts.filter((v) => v.criterionId === row.item).at(-1)?.decision;
      if (!judgeDecision) throw refuse('item', `${row.unit} has no criterion "${row.item}" at ${row.scope}`);
      [unit, lockedId] = [projectUnitKey(row.unit), `${row.scope}/${row.item}`];
    }
    const itemDigest = lockedItemDigests(o.lock, unit)?.[lockedId];
    if (!itemDigest)
      throw refuse('item', `job-lock.json has no version of ${row.unit} item "${lockedId}" to pin the label to`);
    return {
      reviewer: o.reviewer,
      source: 'job',
      unit,
      system: row.system,
      trial: row.trial,
      item: { id: row.item, scope: row.scope },
      itemDigest,
      decision: row.human === 1 ? 'satisfied' : 'not-satisfied',
      note: `imported from ${o.file}`,
      evidence: [],
      blind: false,
      judgeDecision,
    };
  });
}
