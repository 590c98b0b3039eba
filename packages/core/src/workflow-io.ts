// Inputs and outputs of the job and trial workflows. Plain data shared by the
// client, workflows and activities; resolved by the client so workflows never read files.
import type { JobSpec, SystemSpec } from './job-schema.js';
import type { TrialStatus } from './trial-record.js';

export const TASK_QUEUE = 'assay';

/** Everything a trial needs. */
export interface TrialInput {
  jobId: string;
  resultsDir: string;
  benchmark: { id: string; version: string; root: string };
  taskId: string;
  system: SystemSpec;
  trial: number;
  limits: JobSpec['limits'];
  resources: JobSpec['resources'];
  judge: JobSpec['judge'];
  /** Seconds without a heartbeat before a lost agent activity is retried elsewhere. */
  heartbeatSeconds: number;
}

export interface JobInput {
  jobId: string;
  resultsDir: string;
  benchmark: TrialInput['benchmark'];
  taskIds: string[];
  systems: SystemSpec[];
  trials: number;
  concurrency: number;
  limits: JobSpec['limits'];
  resources: JobSpec['resources'];
  judge: JobSpec['judge'];
  heartbeatSeconds: number;
}

export interface TrialOutcome {
  key: string;
  status: TrialStatus | 'skipped';
  score: number | null;
  decided: number | null;
  unjudged: number;
  error?: string;
}

export interface JobProgress {
  total: number;
  skipped: number;
  running: string[];
  done: TrialOutcome[];
}

export function trialKey(systemId: string, taskId: string, trial: number): string {
  return `${systemId}/${taskId}/${trial}`;
}

export function trialWorkflowId(jobId: string, key: string): string {
  return `assay-trial:${jobId}:${key.replaceAll('/', ':')}`;
}

export function jobWorkflowId(jobId: string): string {
  return `assay-job:${jobId}`;
}
