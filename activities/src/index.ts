export { createTrialActivities } from './create-trial-activities.js';
export { renderInstruction } from './assay-task-runtime.js';
export { createJobActivities, type CancelledUnit, type JobActivities } from './create-job-activities.js';
export type { TrialActivities, TrialActivityDeps, PreparedWorkspace } from './create-trial-activities.js';
export type { AgentArgs, EvaluateArgs } from './task-runtime.js';
export type { RecordArgs } from './finish-trial.js';
export type { AgentRun } from './run-harness.js';
export { forwardThrottles, type NotifyThrottled, type ThrottleForwarder } from './forward-throttles.js';
export type { EvidenceTools, FormatCompliance } from './evaluate-deliverables.js';
export { assessFormatCompliance } from './evaluate-deliverables.js';
export { reapContainers } from './reap-containers.js';
export { reapRelayFolders } from './reap-relay-folders.js';
export {
  containerNameFor,
  LABEL_MANAGED,
  LABEL_TEMPORAL_ADDRESS,
  LABEL_TEMPORAL_NAMESPACE,
  LABEL_WORKFLOW,
  serverLabels,
  settleContainerRemovals,
} from './run-agent-container.js';
export type { TemporalServerRef } from './run-agent-container.js';
export { RUNNABLE_HARNESSES } from './harness/plan-container.js';
export { SCRIPTED_AGENTS } from '@assay/core';
export { trialPaths } from './trial-paths.js';
export { createProjectActivities } from './create-project-activities.js';
export type { ProjectActivities, ProjectActivityDeps } from './create-project-activities.js';
export { rejudgeProject, assembleProjectRecord } from './project-evaluation.js';
export type { EvaluationDeps, FinalEvaluation } from './project-evaluation.js';
export { evaluateTaskSubmission, withEvaluation, type Evaluation } from './task-evaluation.js';
export { writeStartupBenchVerdicts } from './startupbench/startupbench-verdicts.js';
export { evaluateItems, reuseKeyOf, EVIDENCE_CONTEXT_VERSION } from './evaluate-items.js';
export type { EvaluationItem, EvaluationTools, JudgeFactory } from './evaluate-items.js';
export { projectPaths } from './project-paths.js';
export { heartbeating, holdForFaultInjection, parseFaultDelays } from './heartbeat.js';
export { mountWorkVolume, unmountWorkVolume, isMountPoint, settleWorkVolumeReleases } from './workspace-volume.js';
export type { StorageCap } from './workspace-volume.js';
export { createBenchmarkLookup } from './load-benchmark-once.js';
export { LOCAL_HOST, type HostIdentity, type HostRecord, type Placement } from './host-identity.js';
