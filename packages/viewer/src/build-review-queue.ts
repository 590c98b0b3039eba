// Which rubric items a person reviews next, and in what order. Pure: the candidates come from the records
// (review-candidates.ts). Two modes:
// - `unjudged`: every item the machine left unjudged, in record order;
// - `sample`: a stratified sample of the decided items (strata: system × dimension × importance × decision;
//   a project criterion's "importance" is its target, or `checkpoint`),
//   `size` allocated proportionally to the strata's sizes with at least one item per non-empty stratum while
//   the size allows, drawn and then ordered by a seeded shuffle: the same seed gives the same queue.
import { createRng, type Rng } from '@assay/analysis';
import type { Decision } from '@assay/core';
import type { Anchor } from './evidence-anchors.js';

export interface ReviewCandidate {
  /** `tasks/<id>` or `projects/<id>` (the job lock's unit keys). */
  unit: string;
  system: string;
  trial: number;
  /** The rubric item's or criterion's id. */
  itemId: string;
  /** null for a task's item; for a project criterion the subtask whose checkpoint judged it, or `final`. */
  scope: string | null;
  /** A checkpoint criterion: its checkpoint's index in the record (the project page's); else null. */
  checkpoint: number | null;
  text: string | null;
  check: string | null;
  /** A task item's importance; a project criterion's target, `checkpoint` for a checkpoint criterion (none). */
  importance: string;
  /** A final criterion's target; null for a task item or a checkpoint criterion. */
  target: string | null;
  dimension: string;
  /** The item's content digest now (job lock, else the benchmark); null when neither is readable. */
  itemDigest: string | null;
  judgeDecision: Decision;
  judgeReason: string;
  /** Where the judge's evidence and reason point in the files it decided on (shown with its decision only). */
  judgeAnchors: Anchor[];
}

export const QUEUE_MODES = ['unjudged', 'sample'] as const;
export type QueueMode = (typeof QUEUE_MODES)[number];

export interface QueueOptions {
  mode: QueueMode;
  /** Sample mode: how many items (at most the number of decided items). */
  size: number;
  seed: number;
}

export const candidateKey = (c: Pick<ReviewCandidate, 'unit' | 'system' | 'trial' | 'itemId' | 'scope'>): string =>
  [c.unit, c.system, c.trial, c.itemId, c.scope ?? ''].join('\u0000');

const stratumOf = (c: ReviewCandidate): string => [c.system, c.dimension, c.importance, c.judgeDecision].join('\u0000');

function shuffle<T>(xs: readonly T[], rng: Rng): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Items per stratum: proportional to size (largest remainders), at least one each while `n` allows. */
export function allocate(sizes: readonly number[], n: number): number[] {
  const total = sizes.reduce((a, b) => a + b, 0);
  const want = Math.min(Math.max(0, Math.floor(n)), total);
  if (want === 0) return sizes.map(() => 0);
  const nonEmpty = sizes.filter((s) => s > 0).length;
  if (want <= nonEmpty) {
    // Not enough for one each: the largest strata get one (first listed on ties).
    const order = sizes.map((s, i) => ({ s, i })).filter((x) => x.s > 0);
    order.sort((a, b) => b.s - a.s || a.i - b.i);
    const chosen = new Set(order.slice(0, want).map((x) => x.i));
    return sizes.map((_, i) => (chosen.has(i) ? 1 : 0));
  }
  const quota = sizes.map((s) => (want * s) / total);
  const alloc = sizes.map((s, i) => (s === 0 ? 0 : Math.min(s, Math.max(1, Math.floor(quota[i]!)))));
  let sum = alloc.reduce((a, b) => a + b, 0);
  while (sum < want) {
    let best = -1;
    for (let i = 0; i < sizes.length; i++) {
      if (alloc[i]! >= sizes[i]!) continue;
      if (best < 0 || quota[i]! - alloc[i]! > quota[best]! - alloc[best]!) best = i;
    }
    alloc[best]!++;
    sum++;
  }
  while (sum > want) {
    let worst = -1;
    for (let i = 0; i < sizes.length; i++) {
      if (alloc[i]! <= 1) continue;
      if (worst < 0 || quota[i]! - alloc[i]! < quota[worst]! - alloc[worst]!) worst = i;
    }
    alloc[worst]!--;
    sum--;
  }
  return alloc;
}

export function buildReviewQueue(candidates: readonly ReviewCandidate[], opts: QueueOptions): ReviewCandidate[] {
  if (opts.mode === 'unjudged') return candidates.filter((c) => c.judgeDecision === 'unjudged');
  const rng = createRng(opts.seed);
  // A canonical order first, so the sample depends on the seed and the items, not on how they were listed.
  const decided = candidates
    .filter((c) => c.judgeDecision !== 'unjudged')
    .sort((a, b) => (candidateKey(a) < candidateKey(b) ? -1 : candidateKey(a) > candidateKey(b) ? 1 : 0));
  const strata = new Map<string, ReviewCandidate[]>();
  for (const c of decided) strata.set(stratumOf(c), [...(strata.get(stratumOf(c)) ?? []), c]);
  const keys = [...strata.keys()].sort();
  const alloc = allocate(
    keys.map((k) => strata.get(k)!.length),
    opts.size,
  );
  const picked = keys.flatMap((k, i) => shuffle(strata.get(k)!, rng).slice(0, alloc[i]));
  // Mixed, so the queue does not walk one stratum after another.
  return shuffle(picked, rng);
}
