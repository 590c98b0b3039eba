// A person's decision on one rubric item of one trial (or one criterion of a project run): `assay.review/v1`.
// Reviews are a layer beside the records, never written into them: the judge's verdict stays as it was, and
// every score that uses reviews says so (its basis). Each review is its own object in the results store
// (reviews/<reviewer>/<time>-<id>.json), so two reviewers, or one in two tabs, never overwrite each other;
// a reviewer who changes their mind adds a review, and the latest one of that reviewer counts.
import { z } from 'zod';
import { decisionSchema } from './trial-record.js';

export const REVIEW_SCHEMA = 'assay.review/v1' as const;

/** What a reviewer can say: the two decisions, or that the evidence does not tell. */
export const REVIEW_DECISIONS = ['satisfied', 'not-satisfied', 'cant-tell'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** Reviewer names become store keys: letters, digits, dot, dash, underscore. */
export const REVIEWER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const reviewSchema = z.object({
  schema: z.literal(REVIEW_SCHEMA),
  /** Unique per review (a UUID): with the time, its key in the store. */
  id: z.string().min(1),
  reviewer: z.string().regex(REVIEWER_NAME),
  /** When it was decided (ISO time). */
  at: z.string(),
  /** Which records it reviews: the job's own (`job`), or a re-judged setup's (`judges/<name>`). */
  source: z.string(),
  /** `tasks/<id>` or `projects/<id>` (the job lock's unit keys). */
  unit: z.string(),
  system: z.string(),
  trial: z.number().int().positive(),
  /** The rubric item or criterion; `scope`: null for a task's item, `final` or the subtask id for a criterion. */
  item: z.object({ id: z.string(), scope: z.string().nullable() }),
  /**
   * sha256 of the item's content as reviewed (its fields, as the job lock digests them): a review of an item
   * that has changed since is stale, shown and never applied.
   */
  itemDigest: z.string(),
  decision: z.enum(REVIEW_DECISIONS),
  note: z.string().default(''),
  /** Evidence anchors the reviewer picked (`memo.docx#p12`, `model.xlsx!Summary!B4`). */
  evidence: z.array(z.string()).default([]),
  /** Blind: the judge's decision and reasons were hidden until this decision was made. */
  blind: z.boolean(),
  /** The machine decision of the item at review time (shown to the reviewer unless blind). */
  judgeDecision: decisionSchema,
});
export type Review = z.infer<typeof reviewSchema>;
