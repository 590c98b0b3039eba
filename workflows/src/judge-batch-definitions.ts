// Batch judging of a job's stored submissions (`assay judge --batch`): the workflow's input,
// state query and the activities it calls (built by the worker of the CLI, which alone reads jobs
// and builds the provider's batch client). Imported by the workflow, worker and client alike.
import { defineQuery } from '@temporalio/workflow';
import type { JudgeSetup } from '@assay/core/pure';

export interface JudgeBatchInput {
  /** The job file as the user named it, resolved (the worker loads the job from it). */
  jobFile: string;
  /** The judge folder's name under <results>/judges/ (in place: names the scratch only). */
  name: string;
  /** A live job's `judge.batch`: the job's own records, those the run left awaiting the batch. */
  inPlace?: boolean;
  setup: JudgeSetup;
  /** Trials and projects replayed at once in a round. */
  concurrency: number;
  /** Seconds between polls of an open batch. */
  pollSeconds: number;
  /** A lost worker is noticed within this (the wait for a batch heartbeats). */
  heartbeatSeconds: number;
  /** Rounds before giving up (each round answers at least one turn of every open session). */
  maxRounds: number;
}

/** Where a round's files live in the judge folder: batches/<run>/round-<n>/. */
export interface RoundRef {
  jobFile: string;
  name: string;
  inPlace?: boolean;
  setup: JudgeSetup;
  run: string;
  round: number;
}

export interface CollectedRound {
  /** Turns deferred this round (0: the judging is done and its records written). */
  deferred: number;
  /** Trials and projects whose records were written (final) this round. */
  written: number;
}

export interface SubmittedBatch {
  batchId: string;
  /** Found rather than created: an earlier attempt had submitted it. */
  found: boolean;
}

export interface EndedBatch {
  succeeded: number;
  failed: number;
  /** Turns the batch did not run at all (a batch that failed validation), recorded as failed. */
  missing: number;
}

export interface JudgeBatchActivities {
  collectJudgeTurns(input: RoundRef & { concurrency: number }): Promise<CollectedRound>;
  submitJudgeBatch(input: RoundRef & { key: string }): Promise<SubmittedBatch>;
  awaitJudgeBatch(input: RoundRef & { batchId: string; pollSeconds: number }): Promise<EndedBatch>;
}

export interface JudgeBatchRound {
  round: number;
  turns: number;
  batchId: string | null;
  ended: EndedBatch | null;
}

export interface JudgeBatchState {
  phase: 'collecting' | 'submitting' | 'waiting' | 'done';
  rounds: JudgeBatchRound[];
}

export interface JudgeBatchOutcome {
  /** The workflow run whose folder (batches/<run>/) holds the rounds and cost.json. */
  run: string;
  rounds: JudgeBatchRound[];
  written: number;
}

export const judgeBatchStateQuery = defineQuery<JudgeBatchState>('judgeBatchState');

/** One workflow per results folder and judge name: running the command again attaches to it. */
export const judgeBatchWorkflowId = (resultsKey: string, name: string): string => `judge-batch/${resultsKey}/${name}`;

/** The name a live job's batch judging goes by (its scratch folder and workflow id). */
export const JOB_BATCH = 'job-batch';

/** Rounds before a batch judging gives up: more than any session's steps times its attempts and fallbacks. */
export const JUDGE_BATCH_MAX_ROUNDS = 200;
