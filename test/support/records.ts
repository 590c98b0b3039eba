// Records as the tests read them: through the one results store, like every other reader.
import { listRegularFiles, openResultsStore, readProjectRecords, readTrialRecords } from '@assay/results';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { reviewSchema, type ProjectRecord, type Review, type TrialRecord } from '@assay/core';

export function readTrials(resultsDir: string): Promise<TrialRecord[]> {
  return readTrialRecords(openResultsStore(resultsDir));
}

export function readProjects(resultsDir: string): Promise<ProjectRecord[]> {
  return readProjectRecords(openResultsStore(resultsDir));
}

export { listRegularFiles };

/** Every record.json and job lock under the results, by path, as bytes (base64): what a reader leaves as it was. */
export function recordFiles(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (e.isFile() && (e.name === 'record.json' || e.name === 'job-lock.json'))
      out.set(path.join(e.parentPath, e.name), readFileSync(path.join(e.parentPath, e.name)).toString('base64'));
  return out;
}

/** The sample benchmark's project and its subtasks, in timeline order. */
export const SAMPLE_PROJECT = 'fdd-hengtai';
export const SAMPLE_SUBTASKS = [
  't01-baseline-model',
  't02-scoping-memo',
  't03-apply-correction',
  't04-ebitda-adjustments',
  't05-management-deck',
  't06-final-package',
];

/**
 * What a rerun, a moved or a resumed project must reproduce: statuses, scores, snapshot manifests,
 * verdicts, final score, gates and targets. `writesAtRunTime`: systems whose agents make their office
 * files anew each run (zip entries carry the time), whose manifests therefore differ run to run.
 */
export function comparableProject(r: ProjectRecord, writesAtRunTime: readonly string[] = []) {
  // A system that writes its files at run time writes the same bytes in two subtasks only when both fall in the
  // same second (timestamps inside the file): an item then reuses the earlier verdict, else its check decides
  // again, with the same decision. Which one happens depends on timing, not on the run being disturbed.
  const newBytes = writesAtRunTime.includes(r.system.id);
  const sourceOf = (s: string) => (newBytes && (s === 'reused' || s === 'check') ? 'check or reused' : s);
  const verdictsOf = (vs: ProjectRecord['final']['verdicts']) =>
    vs.map((v) => [v.criterionId, v.decision, sourceOf(v.source), v.effective]);
  return {
    system: r.system.id,
    checkpoints: r.checkpoints.map((c) => ({
      subtask: c.subtaskId,
      status: c.agent.status,
      score: c.score,
      manifest: newBytes ? 'new bytes each run' : c.snapshot.manifestSha256,
      verdicts: verdictsOf(c.verdicts),
    })),
    process: r.process,
    final: {
      score: r.final.score,
      gates: r.final.gates,
      targets: r.final.targets,
      verdicts: verdictsOf(r.final.verdicts),
    },
  };
}

/** A reviewer's reviews in a results folder, in the order they were written. */
export function reviewsOf(results: string, reviewer: string): Review[] {
  const dir = path.join(results, 'reviews', reviewer);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => reviewSchema.parse(JSON.parse(readFileSync(path.join(dir, f), 'utf8'))));
}
