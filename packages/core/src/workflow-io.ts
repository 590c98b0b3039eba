// Inputs and outputs of the job and trial workflows. Plain data shared by the
// client, workflows and activities; resolved by the client so workflows never read files.
import type { JobSpec, SystemSpec } from './job-schema.js';
import type { TrialStatus } from './trial-record.js';
import type { Budget, Spend, UnitUsage } from './budget-spend.js';
import type { ModelPrice } from './model-prices.js';
import type { PausedBy } from './job-control-file.js';

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
  /** Seconds a host-bound activity waits for its host's worker before the unit moves (default 600). */
  hostWaitSeconds?: number;
}

/** Everything a trial needs. */
export interface TrialInput extends UnitSettings {
  taskId: string;
}

/** The settings of one unit of a job, for a system and trial number. */
export function unitSettings(job: JobInput, system: SystemSpec, trial: number): UnitSettings {
  const { jobId, resultsDir, benchmark, limits, resources, judge, heartbeatSeconds, hostWaitSeconds } = job;
  const settings = { jobId, resultsDir, benchmark, system, trial, limits, resources, judge, heartbeatSeconds };
  return hostWaitSeconds === undefined ? settings : { ...settings, hostWaitSeconds };
}

export interface JobInput {
  jobId: string;
  /** The job file, absolute (a worker loads the job from it to judge through batches, `judge.batch`). */
  jobFile?: string;
  /** `judge.batch`: seconds between polls of an open batch (default 30; ASSAY_JUDGE_BATCH_POLL_SECONDS). */
  batchPollSeconds?: number;
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
  hostWaitSeconds?: number;
  /**
   * Children started per workflow run before the job continues as new, so its history
   * stays small however many trials a job has (default 500).
   */
  batchSize?: number;
  /** The job file's budget; the job pauses itself when its spend reaches it. */
  budget?: Budget;
  /** Price table (the repo's, with the job file's `prices` over it), resolved by the client. */
  prices?: Record<string, ModelPrice>;
  /**
   * Units whose last attempt ended so run again as new attempts, the old one kept under
   * `attempts/` (`assay run --retry`; infra failures and cancelled units always run again).
   */
  retry?: RetryKind[];
  /** Back-pressure windows (the job file's `backPressure`; defaults in workflows/src/endpoint-limits.ts). */
  backPressure?: BackPressure;
  /** What earlier runs of this submission did (set on continue-as-new). */
  carry?: {
    alreadyRecorded: number;
    ran: number;
    infraFailed: TrialOutcome[];
    /** Pause state and live concurrency, so a continued job stays paused and keeps its lanes. */
    control?: JobControl;
    /** The budget as last set (`assay resume` may raise it) and how many units the spend covers. */
    budget?: Budget | null;
    spendBy?: { agents: Spend; judges: Spend };
    spentUnits?: number;
    /** Per-endpoint lane limits and throttle history (back-pressure). */
    endpoints?: EndpointState[];
  };
}

/** How the job reacts to 429 / overloaded answers: at most one halving per cool-down, a step up after a quiet period. */
export interface BackPressure {
  coolDownSeconds: number;
  raiseAfterSeconds: number;
}

/** From a running agent to its job: its model endpoint answered 429 / 529 / overloaded `count` more times. */
export interface ThrottleReport {
  endpoint: string;
  count: number;
  /** The unit whose agent saw it (for the job's history; the job does not need it). */
  unit?: string;
}

/** The job's back-pressure state of one endpoint (times are workflow time, ms since the epoch). */
export interface EndpointState {
  endpoint: string;
  /** Lanes allowed; null: not limited (the job's concurrency applies). */
  limit: number | null;
  /** Throttled answers reported so far. */
  throttled: number;
  lastThrottleAt: number | null;
  /** When the limit was last halved, and last raised. */
  lastCutAt: number | null;
  lastRaiseAt: number | null;
  /** Throttles per minute bucket (start ms, count) over the last 5 minutes. */
  recent: [number, number][];
}

/** An endpoint as `status` and live progress show it: "127.0.0.1:18080 2/8 lanes, 37 throttled in the last 5 min". */
export interface EndpointView {
  endpoint: string;
  /** Lanes allowed now (the job's concurrency when not limited). */
  limit: number;
  concurrency: number;
  throttled: number;
  recentThrottled: number;
}

export type RetryKind = 'infra-failed' | 'agent-failed';
export const RETRY_KINDS: readonly RetryKind[] = ['infra-failed', 'agent-failed'];

/** A unit's end as the job sees it: a record's status, or stopped by `assay cancel` (no record, no score). */
export type UnitStatus = TrialStatus | 'cancelled';

/** Steering state of a running job (`assay pause | resume | cancel | set-concurrency`, budgets). */
export interface JobControl {
  state: 'running' | 'paused' | 'cancelling' | 'cancelled';
  reason?: string;
  /** Who paused it (`assay pause`, `--now`, or its budget), while paused. */
  pausedBy?: PausedBy;
  /** When it entered `state` (workflow time, ms since the epoch). */
  since?: number;
  /** Units at once, changed live by `assay set-concurrency`. */
  concurrency: number;
  /** What this submission's units spent so far (as the budget counts it: `budget.covers`). */
  spend?: Spend;
  /** `spend` plus, for each unit still to run, the average per unit so far. */
  projected?: Spend;
  /** What agents and judges spent so far, apart (the judge's bill beside the agents'), whatever the budget counts. */
  spendBy?: { agents: Spend; judges: Spend };
  budget?: Budget;
}

/** `assay resume` arguments: the job file's budget as it is now (null: none), when it sends one. */
export interface ResumeRequest {
  budget?: Budget | null;
}

/** `assay pause` arguments: `now` stops running task agents too (their trials run again later). */
export interface PauseRequest {
  now?: boolean;
  reason?: string;
}

/** `assay cancel` arguments: running units get `graceSeconds` to finish before they are stopped. */
export interface CancelRequest {
  graceSeconds: number;
}

export interface TrialOutcome {
  key: string;
  /** For projects, `score` is the final score and `decided` the process score. */
  kind?: 'task' | 'project';
  status: UnitStatus | 'skipped';
  score: number | null;
  decided: number | null;
  unjudged: number;
  error?: string;
  /** Tokens by model and agent time, for the budget (units that ran to a record). */
  usage?: UnitUsage;
}

export interface JobProgress {
  total: number;
  skipped: number;
  running: string[];
  done: TrialOutcome[];
  control?: JobControl;
  /** Endpoints limited by back-pressure or throttled in the last 5 minutes. */
  endpoints?: EndpointView[];
}

export function trialKey(systemId: string, taskId: string, trial: number): string {
  return `${systemId}/${taskId}/${trial}`;
}

export function trialWorkflowId(jobId: string, key: string): string {
  return `assay-trial:${jobId}:${key.replaceAll('/', ':')}`;
}

/** The job workflow's progress query (workflows/definitions defines it; status asks it by name). */
export const JOB_PROGRESS_QUERY = 'progress';

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
  /** The host holding the project's workspace: the subtask's agent and snapshot run there. */
  hostId?: string;
  /** Moves of the project so far: the agent's container is named per move. */
  moves?: number;
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
  /** `paused`: the job is paused, the next subtask waits for `assay resume`. */
  phase: 'starting' | 'releasing' | 'subtask' | 'paused' | 'final' | 'recording' | 'done';
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
