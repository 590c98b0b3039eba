// JSON Schemas for editors, generated from the zod types (the single source of truth).
import { z } from 'zod';
import {
  benchmarkIndexSchema,
  projectCriteriaSchema,
  projectSpecSchema,
  rubricSchema,
  taskSpecSchema,
} from './benchmark-schema.js';
import { jobControlFileSchema } from './job-control-file.js';
import { jobLockSchema } from './job-lock.js';
import { jobSchema } from './job-schema.js';
import { reviewSchema } from './review-record.js';
import { trialRecordSchema } from './trial-record.js';

const SCHEMA_FILES = {
  'benchmark.schema.json': benchmarkIndexSchema,
  'task.schema.json': taskSpecSchema,
  'rubric.schema.json': rubricSchema,
  'project.schema.json': projectSpecSchema,
  'criteria.schema.json': projectCriteriaSchema,
  'job.schema.json': jobSchema,
  'trial-record.schema.json': trialRecordSchema,
  'job-control.schema.json': jobControlFileSchema,
  'job-lock.schema.json': jobLockSchema,
  'review.schema.json': reviewSchema,
} as const;

export function toJsonSchemas(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(SCHEMA_FILES).map(([file, schema]) => [
      file,
      z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }),
    ]),
  );
}
