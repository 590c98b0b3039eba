export * from './issue.js';
export * from './load-benchmark.js';
export * from './load-job.js';
export { findCycle } from './find-cycle.js';
