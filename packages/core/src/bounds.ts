// Numeric bounds a user can set in more than one way (a job file, a CLI argument, a live update),
// each stated once: the zod schemas, the workflow's update validators, the CLI's checks and the
// sentences that name a range all read them from here. Zod-free, so workflows/ (through
// @assay/core/pure) and the CLI's entry (through @assay/core/bounds, without the rest of core) can
// import it.

/** Units a job runs at once: `concurrency:` in a job file and `assay set-concurrency <n>`. Whole numbers. */
export const CONCURRENCY_BOUNDS = { min: 1, max: 1000 } as const;

/** Trials and projects `assay judge --concurrency` judges at once. Whole numbers. */
export const JUDGE_COMMAND_CONCURRENCY_BOUNDS = { min: 1, max: 64 } as const;

/** Seconds running units may still finish after `assay cancel --grace` (7 days at most). */
export const GRACE_SECONDS_BOUNDS = { min: 0, max: 604_800 } as const;

/**
 * The longest agent or verifier limit a job may set (`limits.agentSeconds`, `limits.verifierSeconds`:
 * 7 days); a Harbor task asking for more cannot be honoured, so its loader refuses it.
 */
export const MAX_LIMIT_SECONDS = 604_800;
