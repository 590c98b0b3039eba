// A job: benchmark x systems x trials, with the papers' numbers as defaults.
import { z } from 'zod';
import { CONCURRENCY_BOUNDS, MAX_LIMIT_SECONDS } from './bounds.js';
import { HARNESS_NAMES } from './harness-names.js';
import { JUDGE_MODES, JUDGE_PROVIDERS } from './vocabulary.js';

const id = z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'must be lowercase letters, digits, ".", "_" or "-"');

export const systemSchema = z
  .object({
    id,
    harness: z.enum(HARNESS_NAMES),
    model: z.string().optional(),
    /** Harness-specific settings (e.g. `flaw` for scripted agents, base URL for CLIs). */
    settings: z.record(z.string(), z.unknown()).default({}),
    /** On Harbor tasks: Harbor's options for the agent (its job config's agent entry), in assay's spelling. */
    harbor: z
      .object({
        /**
         * Harbor's resume_trajectory: on a multi-step task, each step after the first continues the model CLI's
         * session of the step before instead of starting a fresh one (no effect on single-step tasks). Default off.
         */
        resumeTrajectory: z.boolean().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type SystemSpec = z.infer<typeof systemSchema>;

export const judgeSetupSchema = z
  .object({
    /** `checks-only` decides deterministic checks and leaves every other item explicitly unjudged. */
    mode: z.enum(JUDGE_MODES).default('checks-only'),
    provider: z.enum(JUDGE_PROVIDERS).optional(),
    model: z.string().optional(),
    baseUrl: z.string().url().optional(),
    /** Name of the environment variable holding the key; the key itself never appears in a job file. */
    apiKeyEnv: z.string().optional(),
    batchSize: z.number().int().positive().max(100).default(8),
    concurrency: z.number().int().positive().max(64).default(4),
    attempts: z.number().int().positive().max(10).default(2),
    timeoutSeconds: z.number().positive().max(86_400).default(1200),
    maxSteps: z.number().int().positive().max(1_000).default(30),
    temperature: z.number().min(0).max(2).default(0),
    /** Sampling seed, sent where the provider supports one (OpenAI-compatible); recorded with every verdict. */
    seed: z.number().int().optional(),
    /**
     * Mark the prompt's shared parts for the provider's prompt cache (Anthropic cache_control breakpoints); off
     * sends none (OpenAI's cache is automatic either way). It changes the bill, never a verdict.
     */
    promptCache: z.boolean().default(true),
    /**
     * `assay run`: judge through the provider's batch API once every unit has run (about half price, results
     * within the provider's 24 h); until then the judge's items are unjudged, awaiting the batch. Changes the
     * bill and when verdicts arrive, never a verdict.
     */
    batch: z.boolean().default(false),
  })
  .strict();
export type JudgeSetup = z.infer<typeof judgeSetupSchema>;

export const limitsSchema = z
  .object({
    agentSeconds: z.number().positive().max(MAX_LIMIT_SECONDS).default(14_400),
    setupSeconds: z.number().positive().max(86_400).default(1_200),
    maxSteps: z.number().int().positive().max(100_000).default(200),
    verifierSeconds: z.number().positive().max(MAX_LIMIT_SECONDS).default(43_200),
  })
  .strict();

export const resourcesSchema = z
  .object({
    cpus: z.number().min(0.01).max(256).default(2),
    memoryGiB: z.number().min(0.0625).max(1_024).default(8),
    storageGiB: z.number().min(0.0625).max(16_384).default(30),
    pids: z.number().int().min(16).max(4_194_304).default(1024),
    network: z.enum(['none', 'host', 'bridge']).default('none'),
  })
  .strict();

/** A cap on what the job may spend; reached, the job pauses itself (`assay resume` after raising it). */
export const budgetSchema = z
  .object({
    usd: z.number().positive().max(10_000_000).optional(),
    tokens: z.number().positive().max(1e13).optional(),
    agentHours: z.number().positive().max(1_000_000).optional(),
    /** Whose spend counts: agents (model tokens and container time), judges (model tokens), or all. */
    covers: z.enum(['all', 'agents', 'judges']).default('all'),
  })
  .strict()
  .refine((b) => b.usd !== undefined || b.tokens !== undefined || b.agentHours !== undefined, {
    message: 'needs at least one of usd, tokens, agentHours',
  });

/** USD per million tokens, by model name: added to (and overriding) the repo's table. */
const modelPriceSchema = z
  .object({
    inputPerMTok: z.number().nonnegative().max(10_000),
    outputPerMTok: z.number().nonnegative().max(10_000),
    cachedInputPerMTok: z.number().nonnegative().max(10_000).optional(),
    cacheWritePerMTok: z.number().nonnegative().max(10_000).optional(),
  })
  .strict();

export const jobSchema = z
  .object({
    schema: z.literal('assay.job/v1'),
    id,
    /** Benchmark folder, relative to the job file. */
    benchmark: z.string().min(1),
    /** Restrict to these task / project ids (default: all in the benchmark). */
    tasks: z.array(id).optional(),
    projects: z.array(id).optional(),
    systems: z.array(systemSchema).min(1),
    trials: z.number().int().min(1).max(1_000).default(3),
    judge: judgeSetupSchema.default(judgeSetupSchema.parse({})),
    limits: limitsSchema.default(limitsSchema.parse({})),
    resources: resourcesSchema.default(resourcesSchema.parse({})),
    /** Trials running at once. */
    concurrency: z.number().int().min(CONCURRENCY_BOUNDS.min).max(CONCURRENCY_BOUNDS.max).default(2),
    budget: budgetSchema.optional(),
    prices: z.record(z.string().min(1), modelPriceSchema).optional(),
    /** Provider back-pressure: a throttled endpoint's lanes are halved at most once per cool-down, raised after a quiet period. */
    backPressure: z
      .object({
        coolDownSeconds: z.number().positive().max(86_400).default(30),
        raiseAfterSeconds: z.number().positive().max(86_400).default(60),
      })
      .strict()
      .optional(),
    /** Results folder, relative to the job file (default: .assay/results/<job id> under the repository). */
    results: z.string().optional(),
  })
  .strict()
  .superRefine((j, ctx) => {
    const seen = new Set<string>();
    j.systems.forEach((s, i) => {
      if (seen.has(s.id))
        ctx.addIssue({ code: 'custom', path: ['systems', i, 'id'], message: `duplicate system id "${s.id}"` });
      seen.add(s.id);
    });
  });
export type JobSpec = z.infer<typeof jobSchema>;
