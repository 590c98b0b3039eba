// The per-trial record written to <results>/trials/<system>/<task>/<trial>/record.json.
// Versioned by `schema`; analysis reads only this. Unjudged items are explicit,
// and a score is null (not 0) when it cannot be computed.
import { z } from 'zod';
import { hostMoveSchema } from './host-placement.js';
import { unitPinSchema } from './unit-version.js';
import {
  DIMENSIONS,
  FORMATS,
  HARBOR_STEP_STRATEGIES,
  IMPORTANCES,
  JUDGE_MODES,
  JUDGE_PROVIDERS,
  RECORD_DOMAINS,
} from './vocabulary.js';

export const TRIAL_RECORD_SCHEMA = 'assay.trial-record/v1' as const;

export const decisionSchema = z.enum(['satisfied', 'not-satisfied', 'unjudged']);
export type Decision = z.infer<typeof decisionSchema>;

const verdictSchema = z.object({
  itemId: z.string(),
  importance: z.enum(IMPORTANCES),
  dimension: z.enum(DIMENSIONS),
  weight: z.number(),
  decision: decisionSchema,
  /** Who decided: a deterministic check, a judge, or nobody yet. */
  source: z.enum(['check', 'judge', 'none']),
  reason: z.string(),
  judge: z.record(z.string(), z.unknown()).optional(),
});
export type Verdict = z.infer<typeof verdictSchema>;

export const usageSchema = z.object({
  inputTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
  cachedInputTokens: z.number().nonnegative().default(0),
  costUsd: z.number().nonnegative().nullable().default(null),
  turns: z.number().int().nonnegative().nullable().default(null),
});
export type Usage = z.infer<typeof usageSchema>;

const scoreSchema = z.object({
  /** 0–100 over all items; null while any item is unjudged. */
  value: z.number().nullable(),
  /** 0–100 over decided items only; null when nothing is decided. */
  decided: z.number().nullable(),
  /** Share of rubric weight that is decided, 0–1. */
  coverage: z.number(),
  /** value >= 90; null while value is null. */
  success: z.boolean().nullable(),
  /** Where the score came from: the rubric's verdicts (absent: the default), or a Harbor task's verifier reward. */
  source: z.enum(['rubric', 'verifier']).optional(),
});
export type Score = z.infer<typeof scoreSchema>;

/** The assay that ran a unit: the root package.json's version and, from a git checkout, its commit. */
const assayVersionSchema = z.object({
  version: z.string(),
  /** `git rev-parse HEAD` of the checkout; null when assay did not run from one (or git was missing). */
  commit: z.string().nullable(),
  /** Whether the checkout had changes (`git status --porcelain` non-empty); null with no commit. */
  dirty: z.boolean().nullable(),
});
export type AssayVersion = z.infer<typeof assayVersionSchema>;

/**
 * The judge behind a record's verdicts: its setup as the unit ran it (digested, and the fields that say which
 * judge it is) and the models the provider named in the replies that decided them.
 */
const judgeProvenanceSchema = z.object({
  /** sha256 of the job's judge setup, as canonical JSON (sorted keys); the setup names key variables, never keys. */
  setupDigest: z.string(),
  mode: z.enum(JUDGE_MODES),
  /** As the setup asked; null in checks-only mode (no model judges) or when the setup names none. */
  provider: z.enum(JUDGE_PROVIDERS).nullable(),
  model: z.string().nullable(),
  /** The judge prompt's version, as the judge's verdicts name it; null when no verdict does (nothing reached the judge). */
  promptVersion: z.string().nullable(),
  /**
   * The distinct model ids the provider named in the replies that decided the judge's verdicts (reused ones
   * included when their cache entry kept it); [] when the judge decided none, and in checks-only mode.
   */
  reportedModels: z.array(z.string()),
  /** The sampling seed the setup sends (OpenAI-compatible providers); null when it sends none. Absent in older records. */
  seed: z.number().int().nullable().optional(),
});
export type JudgeProvenance = z.infer<typeof judgeProvenanceSchema>;

/**
 * What produced a record, beyond the job's settings: the content version of the task or project it ran
 * (UnitVersion's digest and parts), the assay that ran it, the agent's image and the models the provider
 * named, and the judge. Absent in records made before it, and each field in records made before that field
 * (shown as "unknown").
 */
export const provenanceSchema = z.object({
  unit: unitPinSchema,
  /**
   * The version the verdicts were decided against, when not the one the agent ran: a record re-judged by
   * `assay judge --accept-changes` after its task or project changed. Absent: judged against `unit`.
   */
  judgedUnit: unitPinSchema.optional(),
  assay: assayVersionSchema.optional(),
  /** The image id (`sha256:…`) the agent's container ran, as the engine reported it. */
  agentImage: z.string().optional(),
  /** The image name the container was created from. */
  agentImageTag: z.string().optional(),
  /** The agent container's limits as the engine applied them (its HostConfig), not as the job asked. */
  resources: z
    .object({
      cpus: z.number().nullable(),
      memoryGiB: z.number().nullable(),
      pids: z.number().nullable(),
      network: z.string().nullable(),
    })
    .optional(),
  /**
   * The harness CLI's version as the CLI itself printed it (`claude --version` …) when its image was built;
   * absent for scripted agents and in records made before it.
   */
  harnessVersion: z.string().optional(),
  /**
   * A Harbor task's verifier image and sidecar images (by compose service) by engine image id (`sha256:…`). A
   * verifier that shares the agent's environment (Harbor 0.20) runs in a snapshot of the agent's container, so
   * its image is that trial's own (agentImage pins what it was made from).
   */
  verifierImage: z.string().optional(),
  sidecarImages: z.record(z.string(), z.string()).optional(),
  /** Model ids the provider named in its answers, as the worker's model proxy saw them; absent: no proxy (scripted agents). */
  models: z.array(z.string()).optional(),
  /**
   * The provider's response ids the proxy saw (where the wire protocol has one): how many, and the first and
   * last cut to 40 characters, enough to find the calls in the provider's logs. Absent: no proxy.
   */
  responses: z
    .object({ count: z.number().int().nonnegative(), first: z.string().nullable(), last: z.string().nullable() })
    .optional(),
  /** The judge that decided its verdicts (a re-judged record's: the judge that re-judged it). */
  judge: judgeProvenanceSchema.optional(),
});
export type Provenance = z.infer<typeof provenanceSchema>;

export const trialStatusSchema = z.enum(['completed', 'agent-failed', 'agent-timeout', 'infra-failed']);
export type TrialStatus = z.infer<typeof trialStatusSchema>;

const deliverableEntrySchema = z.object({
  path: z.string(),
  sha256: z.string(),
  size: z.number().int().nonnegative(),
  detectedFormat: z.enum(FORMATS).nullable(),
});
export type DeliverableEntry = z.infer<typeof deliverableEntrySchema>;

/** The workspace storage cap and whether this machine could enforce it. */
export const storageCapSchema = z.object({ limitGiB: z.number(), enforced: z.boolean(), note: z.string().nullable() });

/**
 * A Harbor verifier's run: all rewards as written, and the one the trial is scored by (core's scoredRewardOf:
 * `reward`, else the only key, else the mean of the keys).
 */
const harborVerifierSchema = z.object({
  rewards: z.record(z.string(), z.number()),
  /** The key scored; null when there is no reward or when the mean of several keys is. */
  rewardKey: z.string().nullable(),
  reward: z.number().nullable(),
  /** The keys whose mean is the reward, when the verifier named several and none is `reward`. */
  meanOf: z.array(z.string()).optional(),
  /** reward.json (preferred, as Harbor does) or reward.txt; null when neither was written. */
  file: z.enum(['reward.json', 'reward.txt']).nullable(),
  exitCode: z.number().int().nullable(),
  timedOut: z.boolean(),
  durationSeconds: z.number().nonnegative(),
  /** Why there is no reward, when there is none. */
  reason: z.string().nullable(),
});
export type HarborVerifierRun = z.infer<typeof harborVerifierSchema>;

/** How the agent's one attempt went (container exit, limit, timings). */
export const agentRunSchema = z.object({
  exitCode: z.number().int().nullable(),
  timedOut: z.boolean(),
  reason: z.string().nullable(),
  startedAt: z.string(),
  endedAt: z.string(),
  durationSeconds: z.number().nonnegative(),
  containerAttempts: z.number().int().nonnegative(),
});
/**
 * A step's `steps/<name>/workdir/` before its agent: the files uploaded to the agent's working directory and
 * its `setup.sh` run there as the step's agent user (exit null and no reason: there is no setup.sh).
 */
const harborStepSetupSchema = z.object({
  exitCode: z.number().int().nullable(),
  timedOut: z.boolean(),
  durationSeconds: z.number().nonnegative(),
  /** Why the setup failed (its exit code and the end of its stderr), null when it did not. */
  reason: z.string().nullable(),
});
export type HarborStepSetup = z.infer<typeof harborStepSetupSchema>;

/** One step of a multi-step Harbor trial as its record keeps it. */
const harborStepSchema = z.object({
  name: z.string(),
  /** The step's verifier reward as a 0–100 score (its `reward`, else its only one); null when it wrote none. */
  score: z.number().nullable(),
  source: z.literal('verifier'),
  agent: agentRunSchema.extend({
    /** The step's agent container was gone (no result) and the step ran again from the previous step's snapshot. */
    restarted: z.boolean(),
  }),
  verifier: harborVerifierSchema,
  /** The step's workdir/ and setup.sh, when it has a workdir/ (absent otherwise, and in records before it). */
  setup: harborStepSetupSchema.optional(),
  /**
   * Why the steps after this one did not run: its min_reward was not met, its verifier gave no reward, or its
   * setup.sh failed (then neither its agent nor its verifier ran: both say so, with no exit code).
   */
  aborted: z.object({ by: z.enum(['min_reward', 'no-verifier-result', 'setup']), reason: z.string() }).nullable(),
});
export type HarborStepRecord = z.infer<typeof harborStepSchema>;

const harborMultiStepSchema = z.object({
  strategy: z.enum(HARBOR_STEP_STRATEGIES),
  /** Every step task.toml declares, in order; `steps` holds those that ran. */
  declared: z.array(z.string()),
});

export const trialRecordSchema = z.object({
  schema: z.literal(TRIAL_RECORD_SCHEMA),
  jobId: z.string(),
  benchmark: z.object({ id: z.string(), version: z.string() }),
  system: z.object({ id: z.string(), harness: z.string(), model: z.string().nullable() }),
  task: z.object({ id: z.string(), domain: z.enum(RECORD_DOMAINS), formatRequired: z.boolean() }),
  trial: z.number().int().positive(),
  status: trialStatusSchema,
  agent: agentRunSchema,
  usage: usageSchema.nullable(),
  deliverables: z.array(deliverableEntrySchema),
  formatCompliance: z.object({
    required: z.boolean(),
    compliant: z.boolean(),
    missing: z.array(z.string()),
    wrongType: z.array(z.string()),
  }),
  verdicts: z.array(verdictSchema),
  score: scoreSchema,
  storage: storageCapSchema.optional(),
  /** Harbor tasks: what tests/test.sh wrote to /logs/verifier (every named reward) and which one is the score. */
  verifier: harborVerifierSchema.optional(),
  /** Multi-step Harbor tasks: each step that ran, in order (its verifier's rewards and score); `verifier` is their aggregate. */
  steps: z.array(harborStepSchema).optional(),
  multiStep: harborMultiStepSchema.optional(),
  /** The host whose workspace and container produced this record (absent in records before hosts). */
  host: z.string().optional(),
  /** Hosts the trial left because they were gone; each move started the trial again from a clean workspace. */
  moves: z.array(hostMoveSchema).optional(),
  provenance: provenanceSchema.optional(),
  recordedAt: z.string(),
});
export type TrialRecord = z.infer<typeof trialRecordSchema>;

export const CANCELLED_RECORD_SCHEMA = 'assay.cancelled/v1' as const;

/**
 * A unit stopped by `assay cancel` before it had a record: written beside (never as) record.json,
 * so no reader takes it for a score; the next `assay run` of the job runs the unit again.
 */
export const cancelledRecordSchema = z.object({
  schema: z.literal(CANCELLED_RECORD_SCHEMA),
  status: z.literal('cancelled'),
  /** `system/task-or-project/trial`. */
  key: z.string(),
  kind: z.enum(['task', 'project']),
  /** Whether the unit had started (its agent may have been stopped) or was still waiting. */
  started: z.boolean(),
  reason: z.string(),
  cancelledAt: z.string(),
});
export type CancelledRecord = z.infer<typeof cancelledRecordSchema>;
