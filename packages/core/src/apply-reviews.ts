// Scores with reviews: a trial record's machine verdicts (checks and judge) and the reviews people made of its
// items, combined by an explicit policy. The record is never changed; what comes out names, item by item, who
// decided it, and the score names its basis:
// - "judge": no review decided or changed anything (checks count as the machine here);
// - "judge + reviews": some items are decided by people, the rest by the machine;
// - "reviews only": every decided item is decided by people.
// A person's decision decides an unjudged item. Where people and the machine disagree, the machine's verdict
// stands by default (the disagreement is counted and shown); `prefer: 'reviews'` takes the people's. Several
// reviewers: each one's latest review counts once, the majority of those who decided wins, a tie or only
// "can't tell" decides nothing. A review of an item that is gone or whose content changed is stale: listed,
// never applied. Pure.
import type { Review } from './review-record.js';
import { scoreTask } from './score-task.js';
import type { Score, TrialRecord, Verdict } from './trial-record.js';

export type ReviewPolicy = 'judge' | 'reviews';
export type ScoreBasis = 'judge' | 'judge + reviews' | 'reviews only';

export interface ReviewedItem {
  itemId: string;
  /** The record's decision (checks and judge), as recorded. */
  machine: Verdict['decision'];
  /** The reviewers whose latest review of the item counts, by name, with their decision. */
  reviews: { reviewer: string; decision: Review['decision'] }[];
  /** The people's combined decision: null when none, a tie, or only "can't tell". */
  human: 'satisfied' | 'not-satisfied' | null;
  /** What the score uses, and who decided it. */
  decision: Verdict['decision'];
  by: 'machine' | 'reviews' | 'none';
  /** The machine and the people both decided it, differently. */
  disagreement: boolean;
}

export interface ReviewedTrial {
  items: ReviewedItem[];
  score: Score;
  basis: ScoreBasis;
  disagreements: number;
  /** Reviews of this trial not applied: the item is gone or its content changed since. */
  stale: Review[];
}

/** The reviews of one trial's rubric items (task records; project criteria carry a scope). */
function reviewsOfTrial(reviews: readonly Review[], record: TrialRecord): Review[] {
  return reviews.filter(
    (r) =>
      r.unit === `tasks/${record.task.id}` &&
      r.system === record.system.id &&
      r.trial === record.trial &&
      r.item.scope === null,
  );
}

/** Each reviewer's latest review per item of a trial (by time, then id: a reviewer who changed their mind added one). */
export function latestReviews(reviews: readonly Review[]): Review[] {
  const latest = new Map<string, Review>();
  for (const r of reviews) {
    const key = [r.reviewer, r.unit, r.system, r.trial, r.item.scope ?? '', r.item.id].join('\u0000');
    const seen = latest.get(key);
    if (!seen || seen.at < r.at || (seen.at === r.at && seen.id < r.id)) latest.set(key, r);
  }
  return [...latest.values()];
}

/** The people's decision on one item from each reviewer's latest review: the majority of those who decided. */
export function humanDecisionOf(reviews: readonly Review[]): ReviewedItem['human'] {
  const yes = reviews.filter((r) => r.decision === 'satisfied').length;
  const no = reviews.filter((r) => r.decision === 'not-satisfied').length;
  return yes > no ? 'satisfied' : no > yes ? 'not-satisfied' : null;
}

/**
 * `reviews`: any reviews (those of other trials are left out); `itemDigests`: each rubric item's content digest
 * now, by item id (what a review's itemDigest must equal to apply), or null when it cannot be known (a job run
 * before locks): then only a review of an item the record does not have is stale.
 */
export function applyReviews(
  record: TrialRecord,
  reviews: readonly Review[],
  opts: { prefer: ReviewPolicy; itemDigests: Readonly<Record<string, string>> | null },
): ReviewedTrial {
  const mine = latestReviews(reviewsOfTrial(reviews, record));
  const known = new Set(record.verdicts.map((v) => v.itemId));
  const isStale = (r: Review) =>
    !known.has(r.item.id) || (opts.itemDigests !== null && opts.itemDigests[r.item.id] !== r.itemDigest);
  const stale = mine.filter(isStale);
  const current = mine.filter((r) => !isStale(r));
  const items: ReviewedItem[] = record.verdicts.map((v) => {
    const of = current.filter((r) => r.item.id === v.itemId);
    const human = humanDecisionOf(of);
    const machineDecided = v.decision !== 'unjudged';
    const disagreement = machineDecided && human !== null && human !== v.decision;
    const useHuman = human !== null && (!machineDecided || (disagreement && opts.prefer === 'reviews'));
    return {
      itemId: v.itemId,
      machine: v.decision,
      reviews: of.map((r) => ({ reviewer: r.reviewer, decision: r.decision })),
      human,
      decision: useHuman ? (human as Verdict['decision']) : v.decision,
      by: useHuman ? 'reviews' : machineDecided ? 'machine' : 'none',
      disagreement,
    };
  });
  const score = scoreTask(items.map((it, i) => ({ weight: record.verdicts[i]!.weight, decision: it.decision })));
  const decided = items.filter((it) => it.by !== 'none');
  const byPeople = decided.filter((it) => it.by === 'reviews').length;
  const basis: ScoreBasis = byPeople === 0 ? 'judge' : byPeople === decided.length ? 'reviews only' : 'judge + reviews';
  return { items, score, basis, disagreements: items.filter((it) => it.disagreement).length, stale };
}
