// `<results>/job-control.json` (assay.job-control/v1): the job's control state as its workflow last
// wrote it, whenever it changed: running, paused (by whom, why), cancelling, cancelled, done, with the
// live concurrency, the endpoints back-pressure limits and the spend so far. The viewer reads it; the
// workflow (its query, its memo) stays the authority while the job runs.
import { z } from 'zod';
import { budgetSchema } from './job-schema.js';
import { JOB_CONTROL_SCHEMA } from './vocabulary.js';

const JOB_CONTROL_STATES = ['running', 'paused', 'cancelling', 'cancelled', 'done'] as const;

/** Who paused the job: `assay pause`, `assay pause --now`, or the job itself when its budget was reached. */
const PAUSED_BY = ['pause', 'pause-now', 'budget'] as const;
export type PausedBy = (typeof PAUSED_BY)[number];

const spendSchema = z.object({
  usd: z.number().nonnegative(),
  tokens: z.number().nonnegative(),
  agentHours: z.number().nonnegative(),
  unpricedTokens: z.number().nonnegative(),
});

const endpointViewSchema = z.object({
  endpoint: z.string(),
  limit: z.number().int().nonnegative(),
  concurrency: z.number().int().positive(),
  throttled: z.number().int().nonnegative(),
  recentThrottled: z.number().int().nonnegative(),
});

export const jobControlFileSchema = z.object({
  schema: z.literal(JOB_CONTROL_SCHEMA),
  jobId: z.string(),
  state: z.enum(JOB_CONTROL_STATES),
  /** What `status` prints after the state: `provider outage`, `budget reached (all): usd 0.19 of 0.15`. */
  reason: z.string().nullable(),
  pausedBy: z.enum(PAUSED_BY).nullable(),
  /** When the job entered this state (ISO, workflow time). */
  since: z.string(),
  /** When the workflow last changed anything below (ISO, workflow time). */
  updatedAt: z.string(),
  concurrency: z.number().int().positive(),
  /** Endpoints limited by back-pressure or throttled in the last 5 minutes. */
  endpoints: z.array(endpointViewSchema),
  /** This submission's spend as the budget counts it, and its projection to the end of the job. */
  spend: spendSchema.nullable(),
  projected: spendSchema.nullable(),
  /** Agents' and judges' spend apart (files written before it have none). */
  spendBy: z.object({ agents: spendSchema, judges: spendSchema }).nullable().default(null),
  budget: budgetSchema.nullable(),
});
export type JobControlFile = z.infer<typeof jobControlFileSchema>;
export type JobControlState = JobControlFile['state'];
