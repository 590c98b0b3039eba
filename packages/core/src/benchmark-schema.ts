// Benchmark file formats. Agent-visible and evaluator-only material live in
// different files and folders, so a loader can hand the agent side to workspace
// preparation without ever touching rubrics or references:
//
//   <benchmark>/benchmark.yaml                 BenchmarkIndex
//   <benchmark>/tasks/<id>/task.yaml           TaskSpec (agent-visible: request, outputs)
//   <benchmark>/tasks/<id>/inputs/...          workspace E
//   <benchmark>/tasks/<id>/evaluator/rubric.yaml   Rubric (evaluator-only)
//   <benchmark>/tasks/<id>/evaluator/reference/... reference deliverables (evaluator-only)
//   <benchmark>/projects/<id>/project.yaml     ProjectSpec (agent-visible timeline)
//   <benchmark>/projects/<id>/releases/...     materials and feedback, released by stage
//   <benchmark>/projects/<id>/evaluator/criteria.yaml  ProjectCriteria (evaluator-only)
import { z } from 'zod';
import { checkSchema, relativePath } from './check-schema.js';
import { DIMENSIONS, DOMAINS, FORMATS, IMPORTANCES, QUALITY_DIMENSIONS, TARGETS } from './vocabulary.js';

const id = z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'must be lowercase letters, digits, ".", "_" or "-"');

const deliverableSchema = z
  .object({
    path: relativePath,
    format: z.enum(FORMATS),
    required: z.boolean().default(true),
    description: z.string().optional(),
  })
  .strict();
export type Deliverable = z.infer<typeof deliverableSchema>;

export const taskSpecSchema = z
  .object({
    schema: z.literal('assay.task/v1'),
    id,
    title: z.string().min(1),
    domain: z.enum(DOMAINS),
    request: z.string().min(1),
    outputs: z.array(deliverableSchema).default([]),
    /** True when the request names the file types (StartupBench's format-compliance subset). */
    formatRequired: z.boolean().default(true),
    maxSteps: z.number().int().positive().optional(),
  })
  .strict();
export type TaskSpec = z.infer<typeof taskSpecSchema>;

export const rubricItemSchema = z
  .object({
    id,
    text: z.string().min(1),
    importance: z.enum(IMPORTANCES),
    dimension: z.enum(DIMENSIONS),
    check: checkSchema.optional(),
  })
  .strict();
export type RubricItem = z.infer<typeof rubricItemSchema>;

export const rubricSchema = z
  .object({
    schema: z.literal('assay.rubric/v1'),
    items: z.array(rubricItemSchema).min(1),
    /** Files under evaluator/reference/ making up the reference solution. */
    reference: z.array(relativePath).default([]),
  })
  .strict();
export type Rubric = z.infer<typeof rubricSchema>;

const releaseSchema = z
  .object({
    id,
    kind: z.enum(['material', 'feedback']),
    /** File under the project's releases/ folder; copied into the workspace at `to` (default: same name under inputs/). */
    path: relativePath,
    to: relativePath.optional(),
    note: z.string().optional(),
  })
  .strict();
const subtaskSchema = z
  .object({
    id,
    title: z.string().min(1),
    instructions: z.string().min(1),
    deliverables: z.array(deliverableSchema).min(1),
  })
  .strict();
export type Subtask = z.infer<typeof subtaskSchema>;

const stageSchema = z
  .object({
    id,
    title: z.string().min(1),
    releases: z.array(releaseSchema).default([]),
    subtasks: z.array(subtaskSchema).min(1),
  })
  .strict();
export type Stage = z.infer<typeof stageSchema>;

export const projectSpecSchema = z
  .object({
    schema: z.literal('assay.project/v1'),
    id,
    title: z.string().min(1),
    role: z.string().min(1),
    objective: z.string().min(1),
    stages: z.array(stageSchema).min(1),
    finalPackage: z.array(deliverableSchema).min(1),
  })
  .strict();
export type ProjectSpec = z.infer<typeof projectSpecSchema>;

/** DeliverBench weights: signed integers with |w| in 1..10; fatal gates carry weight 0. */
const signedWeight = z.number().int().min(-10).max(10);

const criterionFields = {
  id,
  text: z.string().min(1),
  weight: signedWeight,
  dimension: z.enum(QUALITY_DIMENSIONS),
  fatal: z.boolean().default(false),
  dependsOn: z.array(id).default([]),
  check: checkSchema.optional(),
};

/** Gates carry weight 0 and nothing else does. */
function refineWeight(c: { fatal: boolean; weight: number }, ctx: z.RefinementCtx): void {
  if (c.fatal && c.weight !== 0)
    ctx.addIssue({ code: 'custom', path: ['weight'], message: 'a fatal gate must have weight 0' });
  if (!c.fatal && c.weight === 0)
    ctx.addIssue({
      code: 'custom',
      path: ['weight'],
      message: 'must be a signed integer with |weight| in 1..10 (0 only for fatal gates)',
    });
}

export const criterionSchema = z.object(criterionFields).strict().superRefine(refineWeight);
export type Criterion = z.infer<typeof criterionSchema>;

export const finalCriterionSchema = z
  .object({
    ...criterionFields,
    target: z.enum(TARGETS),
    /** Artifact quality: re-apply a checkpoint criterion (`subtask/criterion`) to the final file versions. */
    reuses: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]*\/[a-z0-9][a-z0-9._-]*$/, 'must be "subtask-id/criterion-id"')
      .optional(),
  })
  .strict()
  .superRefine(refineWeight);
export type FinalCriterion = z.infer<typeof finalCriterionSchema>;

export const projectCriteriaSchema = z
  .object({
    schema: z.literal('assay.criteria/v1'),
    /** Checkpoint criteria keyed by subtask id. */
    checkpoints: z.record(id, z.array(criterionSchema).min(1)),
    final: z.array(finalCriterionSchema).min(1),
    reference: z.array(relativePath).default([]),
  })
  .strict();
export type ProjectCriteria = z.infer<typeof projectCriteriaSchema>;

export const benchmarkIndexSchema = z
  .object({
    schema: z.literal('assay.benchmark/v1'),
    id,
    title: z.string().min(1),
    version: z.string().min(1),
    tasks: z.array(id).default([]),
    projects: z.array(id).default([]),
  })
  .strict();
export type BenchmarkIndex = z.infer<typeof benchmarkIndexSchema>;
