// @assay/core without zod: the types and pure functions (scoring, ids, spend, host queues) that
// workflow code imports. The zod schemas stay out of the workflow bundle and its V8 context (the
// bundle and the worker's isolate were ~1.2 MB larger with them); eslint keeps workflows/ on this entry.
export * from './vocabulary.js';
export * from './bounds.js';
export * from './harness-names.js';
export * from './harbor-reward.js';
export * from './harbor-steps.js';
export * from './run-harbor-steps.js';
export * from './score-task.js';
export * from './host-queue.js';
export * from './workflow-io.js';
export * from './score-project.js';
export * from './diff-snapshots.js';
export * from './judge-protocol.js';
export * from './decide-items.js';
export * from './score-criteria.js';
export * from './to-verdicts.js';
export * from './model-prices.js';
export * from './budget-spend.js';
export * from './model-endpoint.js';
export * from './find-secrets.js';
export type * from './check-schema.js';
export type * from './benchmark-schema.js';
export type * from './job-schema.js';
export type * from './trial-record.js';
export type * from './host-placement.js';
export type * from './project-record.js';
export type * from './job-control-file.js';
