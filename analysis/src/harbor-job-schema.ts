// The part of a Harbor job folder assay reads, as Harbor 0.25.0 writes it (harbor.models.trial.result
// TrialResult and its parts, harbor.models.job.config JobConfig, harbor.models.job.result JobResult; field names
// exactly as there). Only what the reader uses is required; everything else Harbor writes passes through.
import { z } from 'zod';

/** Harbor writes datetimes as ISO strings (pydantic); null where a phase did not run. */
const when = z.string().nullable().optional();

export const harborTimingSchema = z.object({ started_at: when, finished_at: when });
export type HarborTiming = z.infer<typeof harborTimingSchema>;

const exceptionInfoSchema = z.object({
  exception_type: z.string(),
  exception_message: z.string(),
  exception_traceback: z.string(),
  occurred_at: z.string(),
});
export type HarborExceptionInfo = z.infer<typeof exceptionInfoSchema>;

const agentContextSchema = z.object({
  n_input_tokens: z.number().int().nonnegative().nullable().optional(),
  n_cache_tokens: z.number().int().nonnegative().nullable().optional(),
  n_output_tokens: z.number().int().nonnegative().nullable().optional(),
  cost_usd: z.number().nonnegative().nullable().optional(),
});

const verifierResultSchema = z
  .object({ rewards: z.record(z.string(), z.number()).nullable().optional() })
  .nullable()
  .optional();

export const harborTrialResultSchema = z.object({
  id: z.string(),
  task_name: z.string().min(1),
  trial_name: z.string().min(1),
  source: z.string().nullable().optional(),
  task_checksum: z.string(),
  agent_info: z.object({
    name: z.string().min(1),
    version: z.string(),
    model_info: z.object({ name: z.string(), provider: z.string().nullable().optional() }).nullable().optional(),
  }),
  agent_result: agentContextSchema.nullable().optional(),
  verifier_result: verifierResultSchema,
  exception_info: exceptionInfoSchema.nullable().optional(),
  started_at: when,
  finished_at: when,
  environment_setup: harborTimingSchema.nullable().optional(),
  agent_setup: harborTimingSchema.nullable().optional(),
  agent_execution: harborTimingSchema.nullable().optional(),
  verifier: harborTimingSchema.nullable().optional(),
  /** Multi-step trials: one StepResult per step that ran, in order; the trial's verifier_result is their aggregate. */
  step_results: z
    .array(
      z.object({
        step_name: z.string(),
        agent_result: agentContextSchema.nullable().optional(),
        verifier_result: verifierResultSchema,
        exception_info: exceptionInfoSchema.nullable().optional(),
        agent_execution: harborTimingSchema.nullable().optional(),
        verifier: harborTimingSchema.nullable().optional(),
      }),
    )
    .nullable()
    .optional(),
});
export type HarborTrialResult = z.infer<typeof harborTrialResultSchema>;

/** The job's config.json (JobConfig): its name is what tells it from other folders with a config.json. */
export const harborJobConfigSchema = z.object({ job_name: z.string(), n_attempts: z.number().int().optional() });

/** The job's result.json (JobResult, written without trial_results). */
export const harborJobResultSchema = z.object({
  id: z.string(),
  started_at: z.string(),
  finished_at: when,
  n_total_trials: z.number().int().nonnegative(),
  stats: z.record(z.string(), z.unknown()),
});

/** One eval's stats in the job's result.json (AgentDatasetStats): read, never trusted over the trials. */
const harborEvalStatsSchema = z.object({
  n_trials: z.number().int().nonnegative().optional(),
  n_errors: z.number().int().nonnegative().optional(),
  /** One entry per metric of the dataset (Mean by default): metric name or reward key → value. */
  metrics: z.array(z.record(z.string(), z.number().nullable())).optional(),
  /** k (a JSON key) → pass@k; empty where Harbor gave up (rewards not exactly 0 or 1, or several keys). */
  pass_at_k: z.record(z.string(), z.number()).optional(),
  exception_stats: z.record(z.string(), z.array(z.string())).optional(),
});

/** The job's `stats` (JobStats), with its legacy n_trials / n_errors names as JobStats still accepts them. */
export const harborJobStatsSchema = z.object({
  n_completed_trials: z.number().int().nonnegative().optional(),
  n_errored_trials: z.number().int().nonnegative().optional(),
  n_trials: z.number().int().nonnegative().optional(),
  n_errors: z.number().int().nonnegative().optional(),
  n_cancelled_trials: z.number().int().nonnegative().optional(),
  n_retries: z.number().int().nonnegative().optional(),
  evals: z.record(z.string(), harborEvalStatsSchema).optional(),
  n_input_tokens: z.number().nullable().optional(),
  n_cache_tokens: z.number().nullable().optional(),
  n_output_tokens: z.number().nullable().optional(),
  cost_usd: z.number().nullable().optional(),
});
export type HarborJobStats = z.infer<typeof harborJobStatsSchema>;
