// Signals and queries of the job and trial workflows, plus the shared inputs
// (re-exported from core). Imported by workflows, worker and client alike.
import { SearchAttributeType, defineSearchAttributeKey } from '@temporalio/common';
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type {
  CancelRequest,
  JobControl,
  JobProgress,
  PauseRequest,
  ResumeRequest,
  ThrottleReport,
} from '@assay/core/pure';
import { JOB_PROGRESS_QUERY } from '@assay/core/pure';

export { TASK_QUEUE, trialKey, trialWorkflowId, jobWorkflowId, unitSettings } from '@assay/core/pure';
export type {
  TrialInput,
  JobInput,
  TrialOutcome,
  JobProgress,
  JobControl,
  PauseRequest,
  ResumeRequest,
  CancelRequest,
  ThrottleReport,
  EndpointState,
  EndpointView,
  BackPressure,
} from '@assay/core/pure';

export const jobProgressQuery = defineQuery<JobProgress>(JOB_PROGRESS_QUERY);
export const trialStageQuery = defineQuery<string>('stage');
/** Where a subtask is: agent, snapshot, evaluating, recording, done. */
export const subtaskStageQuery = defineQuery<string>('subtaskStage');

// Job control (`assay pause | resume | cancel | set-concurrency`): acknowledged updates that
// answer with the job's control state once the workflow has applied them.
export const pauseJobUpdate = defineUpdate<JobControl, [PauseRequest]>('pauseJob');
export const resumeJobUpdate = defineUpdate<JobControl, [ResumeRequest]>('resumeJob');
export const cancelJobUpdate = defineUpdate<JobControl, [CancelRequest]>('cancelJob');
export const setConcurrencyUpdate = defineUpdate<JobControl, [number]>('setConcurrency');
/** From a running agent's activity to its job: its model endpoint answered 429 / overloaded (back-pressure). */
export const throttledSignal = defineSignal<[ThrottleReport]>('throttled');
/** From the job to its running projects: hold (true) or release (false) their next subtask. */
export const holdSubtasksSignal = defineSignal<[boolean]>('holdSubtasks');
/**
 * From the job to its running projects (`pause --now`, sent after the hold): stop the running
 * subtask's agent; the project runs that subtask again from its last checkpoint once released.
 */
export const stopSubtaskSignal = defineSignal('stopSubtask');
/** From a project to its running subtask: stop the agent if it is still running (else finish). */
export const stopAgentSignal = defineSignal('stopAgent');
/** The failure type a subtask ends with when `stopAgentSignal` stopped its agent. */
export const STOPPED_NOW = 'StoppedNow';

/** Search attributes registered by `assay setup` (Keyword), so the Web UI can filter trials. */
export const searchKeys = {
  job: defineSearchAttributeKey('AssayJob', SearchAttributeType.KEYWORD),
  system: defineSearchAttributeKey('AssaySystem', SearchAttributeType.KEYWORD),
  task: defineSearchAttributeKey('AssayTask', SearchAttributeType.KEYWORD),
  harness: defineSearchAttributeKey('AssayHarness', SearchAttributeType.KEYWORD),
  model: defineSearchAttributeKey('AssayModel', SearchAttributeType.KEYWORD),
  /** The host holding the unit's workspace now (set once it is prepared, changed when it moves). */
  host: defineSearchAttributeKey('AssayHost', SearchAttributeType.KEYWORD),
};

export type {
  ProjectTrialInput,
  SubtaskInput,
  SubtaskOutcome,
  ProjectProgress,
  FeedbackInjection,
} from '@assay/core/pure';
export { projectTrialKey, projectWorkflowId } from '@assay/core/pure';

/** Progress of a running project: stage, subtask, checkpoint scores so far. */
export const projectProgressQuery = defineQuery<import('@assay/core/pure').ProjectProgress>('projectProgress');

/** Scripted client feedback for a running project, released before the next subtask. Acknowledged. */
export const injectFeedbackUpdate = defineUpdate<
  { accepted: true; releaseBefore: string | null },
  [import('@assay/core/pure').FeedbackInjection]
>('injectFeedback');
