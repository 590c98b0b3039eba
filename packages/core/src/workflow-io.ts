// Inputs and outputs of the job and trial workflows. Plain data shared by the
// client, workflows and activities; resolved by the client so workflows never read files.
import type { JobSpec, SystemSpec } from './job-schema.js';
import type { TrialStatus } from './trial-record.js';

export const TASK_QUEUE = 'assay';

/**
 * The job's settings as one unit of work (a task trial or a project trial) carries them: the
 * job file's own values, resolved once by the client, passed unchanged down to the container.
 */
export interface UnitSettings {
  jobId: string;
  resultsDir: string;
  benchmark: { id: string; version: string; root: string };
  system: SystemSpec;
  trial: number;
  limits: JobSpec['limits'];
  resources: JobSpec['resources'];
  judge: JobSpec['judge'];
  /** Seconds without a heartbeat before a lost agent activity is retried elsewhere. */
  heartbeatSeconds: number;
}

/** Everything a trial needs. */
export interface TrialInput extends UnitSettings {
  taskId: string;
}

/** The settings of one unit of a job, for a system and trial number. */
export function unitSettings(job: JobInput, system: SystemSpec, trial: number): UnitSettings {
  const { jobId, resultsDir, benchmark, limits, resources, judge, heartbeatSeconds } = job;
  return { jobId, resultsDir, benchmark, system, trial, limits, resources, judge, heartbeatSeconds };
}

export interface JobInput {
  jobId: string;
  resultsDir: string;
  benchmark: TrialInput['benchmark'];
  taskIds: string[];
  projectIds: string[];
  systems: SystemSpec[];
  trials: number;
  concurrency: number;
  limits: JobSpec['limits'];
  resources: JobSpec['resources'];
  judge: JobSpec['judge'];
  heartbeatSeconds: number;
  /**
   * Children started per workflow run before the job continues as new, so its history
   * stays small however many trials a job has (default 500).
   */
  batchSize?: number;
  /** What earlier runs of this submission did (set on continue-as-new). */
  carry?: { alreadyRecorded: number; ran: number; infraFailed: TrialOutcome[] };
}

export interface TrialOutcome {
  key: string;
  /** For projects, `score` is the final score and `decided` the process score. */
  kind?: 'task' | 'project';
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

/** One (system, project, trial): a persistent workspace carried through every subtask. */
export interface ProjectTrialInput extends UnitSettings {
  projectId: string;
}

export interface SubtaskInput {
  project: ProjectTrialInput;
  stageId: string;
  subtaskId: string;
  /** 1-based position in the whole project, for session continuation. */
  index: number;
}

export interface SubtaskOutcome {
  subtaskId: string;
  agentStatus: TrialStatus;
  score: number | null;
  unjudged: number;
}

export interface ProjectProgress {
  stage: string | null;
  subtask: string | null;
  phase: 'starting' | 'releasing' | 'subtask' | 'final' | 'recording' | 'done';
  checkpoints: SubtaskOutcome[];
  finalScore: number | null;
  injectedFeedback: number;
}

export interface FeedbackInjection {
  /** File name under /workspace/inputs/feedback/. */
  name: string;
  text: string;
}

export function projectTrialKey(systemId: string, projectId: string, trial: number): string {
  return `${systemId}/${projectId}/${trial}`;
}

export function projectWorkflowId(jobId: string, key: string): string {
  return `assay-project:${jobId}:${key.replaceAll('/', ':')}`;
}
