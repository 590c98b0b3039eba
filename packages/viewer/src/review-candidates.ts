// Every rubric item of a source's trial records, then every criterion verdict of its project records
// (review-project-candidates.ts), as a review candidate: its text and check (from the benchmark), its content
// digest now (the job's lock's fields, else the unit as the benchmark has it), and the machine's decision and
// reason.
import { digestTask, itemDigestsOf } from '@assay/benchmark';
import { taskUnitKey, type JobLock, type TrialRecord } from '@assay/core';
import { readJobLock } from '@assay/results';
import { benchmarkContext, taskContext } from './benchmark-context.js';
import type { ReviewCandidate } from './build-review-queue.js';
import { describeCheck } from './describe-check.js';
import { verdictAnchors } from './evidence-anchors.js';
import { unitDigests } from './unit-digests.js';
import { readSourceRecords } from './read-source-records.js';
import { projectCandidates } from './review-project-candidates.js';
import { reviewStore } from './review-store.js';
import type { ViewerSource } from './viewer-source.js';

export async function reviewCandidates(source: ViewerSource): Promise<ReviewCandidate[]> {
  const records = await readSourceRecords(source);
  // A judge setup has no lock of its own: its items are the job's, as the job's lock has them.
  const lock = source.judge === null ? records.lock : await readJobLock(reviewStore(source), { strict: false });
  return [
    ...(await taskCandidates(source, records.trials, lock)),
    ...(await projectCandidates(source, records.projects, lock)),
  ];
}

async function taskCandidates(
  source: ViewerSource,
  trials: readonly TrialRecord[],
  lock: JobLock | null,
): Promise<ReviewCandidate[]> {
  const ctx = await benchmarkContext(source);
  const digests = unitDigests(lock, taskUnitKey, (taskId) => {
    const task = ctx.benchmark?.tasks.find((t) => t.spec.id === taskId);
    return task ? itemDigestsOf(digestTask(task)) : null;
  });
  const sorted = [...trials].sort(
    (a, b) => a.task.id.localeCompare(b.task.id) || a.system.id.localeCompare(b.system.id) || a.trial - b.trial,
  );
  const out: ReviewCandidate[] = [];
  for (const r of sorted) {
    const spec = (await taskContext(source, r.task.id)).items;
    const paths = r.deliverables.map((d) => d.path);
    for (const v of r.verdicts) {
      out.push({
        unit: taskUnitKey(r.task.id),
        system: r.system.id,
        trial: r.trial,
        itemId: v.itemId,
        scope: null,
        checkpoint: null,
        text: spec[v.itemId]?.text ?? null,
        check: describeCheck(spec[v.itemId]?.check),
        importance: v.importance,
        target: null,
        dimension: v.dimension,
        itemDigest: digests(r.task.id)[v.itemId] ?? null,
        judgeDecision: v.decision,
        judgeReason: v.reason,
        judgeAnchors: verdictAnchors(v, paths, spec[v.itemId]?.check),
      });
    }
  }
  return out;
}
