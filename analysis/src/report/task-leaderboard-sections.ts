// The report's single-task leaderboard: the board with its one-line reading and the score-vs-success ranking, or,
// when no trial has every item decided (checks-only), the board over decided items in their place.
import type { ColumnTable } from 'arquero';
import type { TaskAnalysis } from '../analyze-results.js';
import { leaderboardFigure } from '../figures/startup-figures.js';
import { messages } from '../messages.js';
import { rowsOf } from '../table-helpers.js';
import type { Row } from '../table-helpers.js';
import { intervalFormats, LEADERBOARD_FORMATS } from './column-formats.js';
import { ci, f2 } from './narrative-numbers.js';
import type { DocumentBuilder } from './report-document.js';

export function decidedLeaderboardSection(d: DocumentBuilder, board: ColumnTable, full: ColumnTable): void {
  const rows = rowsOf<{ unjudged: number }>(full);
  const unjudged = rows.reduce((n, r) => n + r.unjudged, 0);
  d.markdown(`\n## Single tasks: leaderboard\n\n${messages.noFullScore(unjudged)}\n`);
  d.table({
    id: 'decided-leaderboard',
    title: 'Leaderboard over decided items',
    caption:
      'Mean score over decided items only (unjudged items left out of credit and weight) and success rate (%) per system, with percentile and BCa CIs. Not a score of the whole rubric.',
    table: board,
    columns: [
      { name: 'system' },
      { name: 'tasks' },
      { name: 'trials' },
      { name: 'mean', label: 'mean (decided)', digits: 2 },
      ...intervalFormats('ci', 'CI'),
      ...intervalFormats('bca', 'BCa'),
      { name: 'success_rate', label: 'success % (decided)', digits: 2 },
      ...intervalFormats('success_ci', 'succ. CI'),
    ],
  });
}

export function leaderboardSection(d: DocumentBuilder, t: TaskAnalysis): void {
  const lb = rowsOf<Row & { system: string; mean: number | null }>(t.leaderboard);
  const best = lb[0];
  d.markdown(`
## Single tasks: leaderboard

${best ? `**${best.system}** has the highest mean score, ${f2(best.mean)} ${ci(best.ci_low, best.ci_high)}, with a success rate of ${f2(best.success_rate)}% ${ci(best.success_ci_low, best.success_ci_high)}.` : ''}
Overlapping intervals do not by themselves show a difference; the paired comparisons below test each pair on the same tasks.
`);
  d.table({
    id: 'leaderboard',
    title: 'Leaderboard',
    caption:
      'Mean score and success rate (%) per system, with percentile and BCa CIs; unjudged = trials without a score.',
    table: t.leaderboard,
    columns: [...LEADERBOARD_FORMATS],
  });
  d.figure(
    {
      id: 'leaderboard',
      title: 'Leaderboard (StartupBench Fig. 3)',
      caption: 'Bars: mean score and success rate; rules: percentile CIs.',
      spec: leaderboardFigure(lb as never),
    },
    ['value'],
  );
}

export function scoreVsSuccessSection(d: DocumentBuilder, t: TaskAnalysis): void {
  const inv = t.scoreVsSuccess.inversions;
  d.markdown(`
### Average score vs success rate

${
  inv.length === 0
    ? 'The ranking by average score and the ranking by success rate agree.'
    : `The two rankings disagree for ${inv.length} pair(s): ${inv
        .slice(0, 6)
        .map((p) => `${p.higherMean} has the higher mean but ${p.higherSuccess} the higher success rate`)
        .join('; ')}.`
}
`);
  d.table({
    id: 'score-vs-success',
    title: 'Average score vs success rate',
    caption: 'gap = mean score − success rate (points); ranks by each.',
    table: t.scoreVsSuccess.table,
    columns: [
      { name: 'system' },
      { name: 'mean', digits: 2 },
      { name: 'success_rate', label: 'success %', digits: 2 },
      { name: 'gap', digits: 2 },
      { name: 'rank_mean' },
      { name: 'rank_success' },
    ],
  });
}
