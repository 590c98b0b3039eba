// Deterministic rubric checks: declarative in rubric files, evaluated over the
// evidence view (packages/evidence). Each returns satisfied / not-satisfied /
// cannot-evaluate; none of them ever guesses.
import { z } from 'zod';
import { FORMATS } from './vocabulary.js';

/** A path inside the submission (output folder); never absolute, never `..`. */
export const relativePath = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith('/') && !p.split(/[\\/]/).includes('..'), {
    message: 'must be a relative path that stays inside its folder (no leading / and no ..)',
  });

/** Where a value lives in a file: a cell (`Sheet1!B3`), or a regex capture over the text. */
const locatorSchema = z.union([
  z
    .object({ file: relativePath, cell: z.string().regex(/^[^!]+![A-Z]{1,3}[0-9]+$/, 'must look like Sheet1!B3') })
    .strict(),
  z.object({ file: relativePath, pattern: z.string().min(1) }).strict(),
]);
export type Locator = z.infer<typeof locatorSchema>;

const cellRef = z.string().regex(/^[^!]+![A-Z]{1,3}[0-9]+$/, 'must look like Sheet1!B3');
const rangeRef = z
  .string()
  .regex(/^[^!]+![A-Z]{1,3}[0-9]+(:[A-Z]{1,3}[0-9]+)?$/, 'must look like Sheet1!B3 or Sheet1!B3:D9');

export const checkSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('deliverable-present'), path: relativePath, format: z.enum(FORMATS).optional() }).strict(),
  z
    .object({
      kind: z.literal('cell-value'),
      file: relativePath,
      cell: cellRef,
      equals: z.union([z.number(), z.string(), z.boolean()]).optional(),
      min: z.number().optional(),
      max: z.number().optional(),
      tolerance: z.number().nonnegative().optional(),
      matches: z.string().optional(),
    })
    .strict(),
  z.object({ kind: z.literal('formula-cached'), file: relativePath, range: rangeRef }).strict(),
  z
    .object({
      kind: z.literal('text-contains'),
      file: relativePath,
      text: z.string().min(1),
      caseSensitive: z.boolean().optional(),
    })
    .strict(),
  z.object({ kind: z.literal('text-matches'), file: relativePath, pattern: z.string().min(1) }).strict(),
  z
    .object({
      kind: z.literal('text-absent'),
      file: relativePath,
      text: z.string().min(1),
      caseSensitive: z.boolean().optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('files-agree'),
      a: locatorSchema,
      b: locatorSchema,
      tolerance: z.number().nonnegative().optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('row-count'),
      file: relativePath,
      sheet: z.string().min(1),
      min: z.number().int().nonnegative().optional(),
      max: z.number().int().nonnegative().optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('section-present'),
      file: relativePath,
      sheet: z.string().optional(),
      slide: z.number().int().positive().optional(),
      heading: z.string().optional(),
    })
    .strict(),
]);
export type Check = z.infer<typeof checkSchema>;
/** Outcome of a deterministic check. `cannot-evaluate` is not a failure: the item stays unjudged by checks. */
export const checkOutcomeSchema = z.object({
  status: z.enum(['satisfied', 'not-satisfied', 'cannot-evaluate']),
  reason: z.string(),
  evidence: z.array(z.string()).default([]),
});
export type CheckOutcome = z.infer<typeof checkOutcomeSchema>;
