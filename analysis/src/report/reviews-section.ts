// The report's "scores with people's reviews": the task leaderboard again with the reviews applied by the stated
// policy (scores-with-reviews.ts, as the viewer's overview ranks them), and per system the basis of its trials'
// scores. Beside the machine's leaderboard, never instead of it.
import type { Analysis } from '../analyze-results.js';
import { rowsOf } from '../table-helpers.js';
import { LEADERBOARD_FORMATS } from './column-formats.js';
import type { DocumentBuilder } from './report-document.js';

export function reviewsSection(d: DocumentBuilder, analysis: Analysis): void {
  const w = analysis.withReviews;
  if (!w) return;
  const scored = rowsOf<{ trials: number; unjudged: number }>(w.leaderboard).reduce(
    (n, r) => n + r.trials - r.unjudged,
    0,
  );
  const policy =
    w.prefer === 'judge'
      ? "where a person and the machine disagree the machine's verdict stands (`--prefer reviews` takes the person's)"
      : "where a person and the machine disagree the person's decision is used (`--prefer reviews`)";
  d.markdown(
    `## Single tasks: scores with people's reviews\n\nThe same trials scored again with the reviews in the results applied: a person's decision decides an item the machine left unjudged, and ${policy}. ${scored} trial${scored === 1 ? ' has' : 's have'} a full score this way. Each system's basis says how many trials' scores rest on the judge alone, on judge + reviews, or on reviews only.`,
  );
  d.table({
    id: 'leaderboard-reviews',
    title: "Leaderboard with people's reviews",
    caption:
      'Mean score and success rate (%) per system with reviews applied, with percentile and BCa CIs; unjudged = trials still without a full score.',
    table: w.leaderboard,
    columns: [...LEADERBOARD_FORMATS],
  });
  d.table({
    id: 'review-basis',
    title: 'Basis of the scores with reviews',
    caption:
      'Trials per system whose score rests on the judge alone, on judge + reviews, or on reviews only; items where a person and the machine disagree; reviews left out as stale (their item changed or is gone).',
    table: w.basis,
    columns: [
      { name: 'system' },
      { name: 'judge' },
      { name: 'judge_reviews', label: 'judge + reviews' },
      { name: 'reviews_only', label: 'reviews only' },
      { name: 'disagreements' },
      { name: 'stale' },
    ],
  });
}
