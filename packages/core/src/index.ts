export * from './vocabulary.js';
export * from './check-schema.js';
export * from './benchmark-schema.js';
export * from './job-schema.js';
export * from './trial-record.js';
export * from './score-task.js';
export * from './workflow-io.js';
