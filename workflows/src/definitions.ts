// Signals and queries of the job and trial workflows, plus the shared inputs
// (re-exported from core). Imported by workflows, worker and client alike.
import { SearchAttributeType, defineQuery, defineSearchAttributeKey } from '@temporalio/workflow';
import type { JobProgress } from '@assay/core';

export { TASK_QUEUE, trialKey, trialWorkflowId, jobWorkflowId } from '@assay/core';
export type { TrialInput, JobInput, TrialOutcome, JobProgress } from '@assay/core';

export const jobProgressQuery = defineQuery<JobProgress>('progress');
export const trialStageQuery = defineQuery<string>('stage');


/** Search attributes registered by `assay setup` (Keyword), so the Web UI can filter trials. */
export const searchKeys = {
  job: defineSearchAttributeKey('AssayJob', SearchAttributeType.KEYWORD),
  system: defineSearchAttributeKey('AssaySystem', SearchAttributeType.KEYWORD),
  task: defineSearchAttributeKey('AssayTask', SearchAttributeType.KEYWORD),
  harness: defineSearchAttributeKey('AssayHarness', SearchAttributeType.KEYWORD),
  model: defineSearchAttributeKey('AssayModel', SearchAttributeType.KEYWORD),
};
