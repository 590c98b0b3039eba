// Workflow entry point for the worker's bundler: export every workflow here.
export { jobWorkflow } from './job-workflow.js';
export { trialWorkflow } from './trial-workflow.js';
export { projectWorkflow } from './project-workflow.js';
export { subtaskWorkflow } from './subtask-workflow.js';
export { judgeBatchWorkflow } from './judge-batch-workflow.js';
