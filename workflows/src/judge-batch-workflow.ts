// Batch judging of a job's stored submissions, turn by turn across all open judge sessions (see
// batched-turns.ts in @assay/judge). Each round:
//   collect  replay every session with the replies known so far; the turns still unanswered are
//            written to the round's folder (none: the records are written and the judging is done);
//   submit   send them as one provider batch, its id stored in the folder before the activity ends
//            (a retried submit finds it there, or by the batch's key on OpenAI: never a second batch);
//   await    poll the batch, heartbeating, until it ends (up to the provider's 24 h); its answers,
//            and a failure for every turn it did not run, are written to the folder.
// Everything a round needs is in the judge folder or this history, so a killed worker or a restarted
// server resumes where it was.
import { ApplicationFailure, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import {
  judgeBatchStateQuery,
  type JudgeBatchActivities,
  type JudgeBatchInput,
  type JudgeBatchOutcome,
  type JudgeBatchState,
} from './judge-batch-definitions.js';

export async function judgeBatchWorkflow(input: JudgeBatchInput): Promise<JudgeBatchOutcome> {
  const state: JudgeBatchState = { phase: 'collecting', rounds: [] };
  setHandler(judgeBatchStateQuery, () => state);
  const heartbeatTimeout = `${input.heartbeatSeconds}s`;
  const retry = { initialInterval: '2s', maximumInterval: '1 minute' };
  const { collectJudgeTurns, submitJudgeBatch } = proxyActivities<JudgeBatchActivities>({
    startToCloseTimeout: '4 hours',
    heartbeatTimeout,
    retry: { ...retry, maximumAttempts: 5 },
  });
  // A batch may take the provider's whole 24 h window: the wait outlives it, and retries on any worker.
  const { awaitJudgeBatch } = proxyActivities<JudgeBatchActivities>({
    startToCloseTimeout: '26 hours',
    heartbeatTimeout,
    retry,
  });
  const { workflowId, runId } = workflowInfo();
  const where = { jobFile: input.jobFile, name: input.name, setup: input.setup, run: runId, inPlace: input.inPlace };
  for (let round = 1; round <= input.maxRounds; round += 1) {
    state.phase = 'collecting';
    const collected = await collectJudgeTurns({ ...where, round, concurrency: input.concurrency });
    if (collected.deferred === 0) {
      state.phase = 'done';
      return { run: runId, rounds: state.rounds, written: collected.written };
    }
    const entry = { round, turns: collected.deferred, batchId: null as string | null, ended: null };
    state.rounds.push(entry);
    state.phase = 'submitting';
    entry.batchId = (await submitJudgeBatch({ ...where, round, key: `${workflowId}/${runId}/${round}` })).batchId;
    state.phase = 'waiting';
    const ended = await awaitJudgeBatch({ ...where, round, batchId: entry.batchId, pollSeconds: input.pollSeconds });
    state.rounds[state.rounds.length - 1] = { ...entry, ended };
  }
  throw ApplicationFailure.nonRetryable(
    `judging still waits on turns after ${input.maxRounds} rounds`,
    'TooManyRounds',
  );
}
