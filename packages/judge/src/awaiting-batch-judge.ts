// The judge of a live job with `judge.batch`: it answers every item unjudged, awaiting the batch judging the
// job runs once every unit has run (workflows/src/judge-batch-workflow.ts), which rewrites these verdicts.
import type { Judge, JudgeAnswer } from '@assay/core';
import { messages } from './messages.js';

/** The reason these verdicts carry, and what the job's batch judging looks for. */
export const AWAITING_BATCH = 'awaiting-batch';

export const awaitingBatchJudge: Judge = (request) => {
  const answer: JudgeAnswer = {
    decision: 'unjudged',
    reason: messages.awaitingBatch(),
    evidence: [],
    meta: { unjudgedReason: AWAITING_BATCH },
  };
  return Promise.resolve(new Map(request.items.map((i) => [i.id, answer])));
};
