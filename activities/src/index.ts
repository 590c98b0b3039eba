export {
  createTrialActivities,
  readProjectRecords,
  readTrialRecords,
  renderInstruction,
} from './create-trial-activities.js';
export { listRegularFiles } from './list-regular-files.js';
export { snapshotWorkspace, restoreSnapshot, storeFile } from './snapshot-workspace.js';
export type {
  TrialActivities,
  TrialActivityDeps,
  Evaluation,
  JudgeItems,
  PreparedWorkspace,
} from './create-trial-activities.js';
export type { AgentRun } from './run-harness.js';
export type { EvidenceTools, FormatCompliance } from './evaluate-deliverables.js';
export { assessFormatCompliance } from './evaluate-deliverables.js';
export { reapContainers } from './reap-containers.js';
export { containerNameFor, LABEL_MANAGED, LABEL_WORKFLOW } from './run-agent-container.js';
export { RUNNABLE_HARNESSES } from './harness/plan-container.js';
export { SCRIPTED_AGENTS } from '@assay/core';
export { trialPaths, trialDir, casPath, RESULTS_LAYOUT_VERSION } from './trial-paths.js';
export { writeJsonAtomic } from './write-file-atomic.js';
export { createProjectActivities, renderSubtaskInstruction } from './create-project-activities.js';
export type { ProjectActivities, ProjectActivityDeps } from './create-project-activities.js';
export { rejudgeProject, assembleProjectRecord, scoreCriteriaVerdicts } from './project-evaluation.js';
export type { CriteriaEvaluation, EvaluationDeps, FinalEvaluation } from './project-evaluation.js';
export { evaluateCriteria, reuseKeyOf, EVIDENCE_CONTEXT_VERSION } from './evaluate-criteria.js';
export type { JudgeCriteria } from './evaluate-criteria.js';
export { projectPaths } from './project-paths.js';
export { heartbeating, parseFaultDelays } from './heartbeat.js';
export { mountWorkVolume, unmountWorkVolume, isMountPoint } from './workspace-volume.js';
export type { StorageCap } from './workspace-volume.js';
