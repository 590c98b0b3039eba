// The per-project-trial record written to
// <results>/projects/<system>/<project>/<trial>/record.json. Process and final
// scores stay separate; unjudged criteria stay explicit; null is never 0.
import { z } from 'zod';
import { QUALITY_DIMENSIONS, TARGETS } from './vocabulary.js';
import { hostMoveSchema } from './host-placement.js';
import {
  agentRunSchema,
  decisionSchema,
  provenanceSchema,
  storageCapSchema,
  trialStatusSchema,
  usageSchema,
} from './trial-record.js';

export const PROJECT_RECORD_SCHEMA = 'assay.project-record/v1' as const;

const criterionVerdictSchema = z.object({
  criterionId: z.string(),
  weight: z.number(),
  fatal: z.boolean(),
  dimension: z.enum(QUALITY_DIMENSIONS),
  target: z.enum(TARGETS).nullable(),
  decision: decisionSchema,
  /** For a negative criterion or gate, `satisfied` means its failure condition is met (h = 1). */
  source: z.enum(['check', 'judge', 'reused', 'none']),
  reason: z.string(),
  /** `subtask/criterion` whose verdict was reused because nothing it looked at changed. */
  reusedFrom: z.string().nullable().default(null),
  /** Hash of (criterion, artifacts, evidence context, judge setup) used for reuse. */
  reuseKey: z.string(),
  /** Judge metadata (identity, usage, cited evidence), as on a task verdict. */
  judge: z.record(z.string(), z.unknown()).optional(),
  effective: z.union([z.literal(0), z.literal(1), z.null()]),
  blockedBy: z.array(z.string()).default([]),
});
export type CriterionVerdict = z.infer<typeof criterionVerdictSchema>;

const snapshotFileSchema = z.object({
  path: z.string(),
  sha256: z.string(),
  size: z.number().int().nonnegative(),
});
export type SnapshotFile = z.infer<typeof snapshotFileSchema>;

const agentSummarySchema = agentRunSchema.extend({ status: trialStatusSchema });

export const checkpointRecordSchema = z.object({
  subtaskId: z.string(),
  stageId: z.string(),
  agent: agentSummarySchema,
  usage: usageSchema.nullable(),
  /** Content-addressed snapshot of the whole workspace at submission. */
  snapshot: z.object({ manifestSha256: z.string(), files: z.array(snapshotFileSchema) }),
  verdicts: z.array(criterionVerdictSchema),
  score: z.number().nullable(),
  gateTriggered: z.boolean(),
  unjudged: z.array(z.string()),
  /** The host whose container ran this subtask's agent (absent in records before hosts). */
  host: z.string().optional(),
});
export type CheckpointRecord = z.infer<typeof checkpointRecordSchema>;

const groupScoreSchema = z.object({
  group: z.string(),
  score: z.number().nullable(),
  available: z.boolean(),
  positiveWeight: z.number(),
});

/** A project's move: a fresh workspace on the new host, restored from the newest preserved checkpoint. */
function projectMoveSchema() {
  return hostMoveSchema.extend({
    /** The checkpoint whose snapshot was restored (null: none yet, the workspace started empty). */
    restoredFrom: z.string().nullable(),
    /** Harness session files are not in checkpoint snapshots: the agent's session starts again. */
    session: z.enum(['restarted']),
  });
}
export type ProjectMove = z.infer<ReturnType<typeof projectMoveSchema>>;

/** A subtask stopped mid-agent (`assay pause --now`) and run again from the last checkpoint. */
const projectRestartSchema = z.object({
  subtaskId: z.string(),
  reason: z.string(),
  at: z.string(),
  /** The host whose workspace was made again (null: a worker that names no host). */
  host: z.string().nullable(),
  /** The checkpoint whose snapshot was restored (null: none yet, the workspace started empty). */
  restoredFrom: z.string().nullable(),
  /** The workspace is made again, harness session files with it. */
  session: z.enum(['restarted']),
});
export type ProjectRestart = z.infer<typeof projectRestartSchema>;

export const projectRecordSchema = z.object({
  schema: z.literal(PROJECT_RECORD_SCHEMA),
  jobId: z.string(),
  benchmark: z.object({ id: z.string(), version: z.string() }),
  system: z.object({ id: z.string(), harness: z.string(), model: z.string().nullable() }),
  project: z.object({ id: z.string(), subtasks: z.number().int().positive() }),
  trial: z.number().int().positive(),
  checkpoints: z.array(checkpointRecordSchema),
  process: z.object({ score: z.number().nullable(), passRate: z.number().nullable() }),
  final: z.object({
    verdicts: z.array(criterionVerdictSchema),
    score: z.number().nullable(),
    raw: z.number().nullable(),
    gateTriggered: z.boolean(),
    gates: z.array(z.string()),
    unjudged: z.array(z.string()),
    targets: z.array(groupScoreSchema),
    dimensions: z.array(groupScoreSchema),
    packageFiles: z.array(snapshotFileSchema),
  }),
  resources: z.object({
    agentSeconds: z.number().nonnegative(),
    inputTokens: z.number().nonnegative().nullable(),
    outputTokens: z.number().nonnegative().nullable(),
    /** input + output; cached input is already inside input and is not added again. */
    totalTokens: z.number().nonnegative().nullable(),
  }),
  injectedFeedback: z.array(z.object({ name: z.string(), beforeSubtask: z.string().nullable() })),
  storage: storageCapSchema.optional(),
  /** The host holding the workspace at the end (each checkpoint names the host its agent ran on). */
  host: z.string().optional(),
  /** Hosts the project left because they were gone; each move continued from the last checkpoint. */
  moves: z.array(projectMoveSchema()).optional(),
  /** Subtasks stopped by `pause --now` and run again from the last checkpoint, in order. */
  restarts: z.array(projectRestartSchema).optional(),
  /** The project's content version (as a trial record's); absent in records before it. */
  provenance: provenanceSchema.optional(),
  recordedAt: z.string(),
});
export type ProjectRecord = z.infer<typeof projectRecordSchema>;
