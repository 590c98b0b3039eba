// Every rubric item of a source's trial records as a review candidate: its text and check (from the benchmark),
// its content digest now (the job's lock's fields, else the task as the benchmark has it), and the machine's
// decision and reason.
import { digestTask, itemDigestsOf } from '@assay/benchmark';
import { lockedItemDigests, taskUnitKey } from '@assay/core';
import { readJobLock } from '@assay/results';
import { benchmarkContext, taskContext } from './benchmark-context.js';
import type { ReviewCandidate } from './build-review-queue.js';
import { readSourceRecords } from './read-source-records.js';
import { reviewStore } from './review-store.js';
import type { ViewerSource } from './viewer-source.js';

/** A check in one line: its kind, then its scalar settings. */
export function describeCheck(check: unknown): string | null {
  if (!check || typeof check !== 'object') return null;
  const { kind, ...rest } = check as Record<string, unknown>;
  const parts = Object.entries(rest)
    .filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v))
    .map(([k, v]) => `${k}: ${String(v)}`);
  return [String(kind ?? 'check'), ...parts].join(' · ');
}

export async function reviewCandidates(source: ViewerSource): Promise<ReviewCandidate[]> {
  const records = await readSourceRecords(source);
  const { trials } = records;
  // A judge setup has no lock of its own: its items are the job's, as the job's lock has them.
  const lock = source.judge === null ? records.lock : await readJobLock(reviewStore(source), { strict: false });
  const ctx = await benchmarkContext(source);
  const digestsOf = new Map<string, Record<string, string>>();
  const digests = (taskId: string): Record<string, string> => {
    let d = digestsOf.get(taskId);
    if (!d) {
      const task = ctx.benchmark?.tasks.find((t) => t.spec.id === taskId);
      d = lockedItemDigests(lock, taskUnitKey(taskId)) ?? (task ? itemDigestsOf(digestTask(task)) : {});
      digestsOf.set(taskId, d);
    }
    return d;
  };
  const sorted = [...trials].sort(
    (a, b) => a.task.id.localeCompare(b.task.id) || a.system.id.localeCompare(b.system.id) || a.trial - b.trial,
  );
  const out: ReviewCandidate[] = [];
  for (const r of sorted) {
    const spec = (await taskContext(source, r.task.id)).items;
    for (const v of r.verdicts) {
      out.push({
        unit: `tasks/${r.task.id}`,
        system: r.system.id,
        trial: r.trial,
        itemId: v.itemId,
        text: spec[v.itemId]?.text ?? null,
        check: describeCheck(spec[v.itemId]?.check),
        importance: v.importance,
        dimension: v.dimension,
        itemDigest: digests(r.task.id)[v.itemId] ?? null,
        judgeDecision: v.decision,
        judgeReason: v.reason,
      });
    }
  }
  return out;
}
