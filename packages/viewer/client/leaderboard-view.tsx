// Leaderboards with the bootstrap CIs @assay/analysis computed: a table and a Vega-Lite interval chart.
import type { VisualizationSpec } from 'vega-embed';
import type { Overview } from './api.js';
import { ci, num } from './format.js';
import { VegaChart } from './vega-chart.js';

type Row = Overview['leaderboard'][number];

function intervalSpec(rows: Row[], title: string): VisualizationSpec {
  const values = rows.filter((r) => r.mean !== null);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title,
    width: 420,
    height: { step: 22 },
    data: { values },
    encoding: { y: { field: 'system', type: 'nominal', sort: '-x', title: null } },
    layer: [
      {
        mark: { type: 'rule', strokeWidth: 2 },
        encoding: {
          x: { field: 'ci_low', type: 'quantitative', scale: { domain: [0, 100] }, title: 'mean score (95% CI)' },
          x2: { field: 'ci_high' },
        },
      },
      { mark: { type: 'point', filled: true, size: 60 }, encoding: { x: { field: 'mean', type: 'quantitative' } } },
    ],
  };
}

type Basis = Overview['reviewBasis'];

/** `decided`: over decided items only; `reviews`: with people's reviews, and the basis of each system's scores. */
export function LeaderboardView({ rows, decided, reviews }: { rows: Row[]; decided: boolean; reviews?: Basis }) {
  if (rows.length === 0) return null;
  const title = reviews
    ? "Score with people's reviews"
    : decided
      ? 'Score over decided items only'
      : 'Score (all items decided)';
  const anyScored = rows.some((r) => r.mean !== null);
  const testId = reviews ? 'leaderboard-reviews' : decided ? 'leaderboard-decided' : 'leaderboard';
  return (
    <section class="leaderboard" data-testid={testId}>
      <h2>{title}</h2>
      {reviews && <ReviewBasisNote rows={reviews} />}
      {decided && (
        <p class="note">
          Items without a deterministic check stay unjudged under a checks-only judge; this board scores each trial over
          the items that were decided (see coverage on each trial). Same bootstrap as the report: tasks are clusters.
        </p>
      )}
      {!anyScored ? (
        <p class="note">
          No trial has every item decided ({rows.reduce((n, r) => n + r.unjudged, 0)} trials with unjudged items): no
          score to rank yet.
        </p>
      ) : (
        <VegaChart spec={intervalSpec(rows, title)} label={`${title}: mean and 95% CI per system`} />
      )}
      <table hidden={!anyScored}>
        <thead>
          <tr>
            <th>#</th>
            <th>system</th>
            <th>harness</th>
            <th>tasks</th>
            <th>trials</th>
            <th>unjudged</th>
            <th>mean</th>
            <th>95% CI</th>
            <th>success %</th>
            <th>95% CI</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={r.system}>
              <td>{i + 1}</td>
              <td>{r.system}</td>
              <td>{r.harness}</td>
              <td>{r.tasks}</td>
              <td>{r.trials}</td>
              <td>{r.unjudged}</td>
              <td class="num">{num(r.mean)}</td>
              <td class="num">{ci(r.ci_low, r.ci_high)}</td>
              <td class="num">{num(r.success_rate)}</td>
              <td class="num">{ci(r.success_ci_low, r.success_ci_high)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function ReviewBasisNote({ rows }: { rows: Basis }) {
  return (
    <div class="note" data-testid="review-basis">
      <p>
        Items people decided count where the machine left them unjudged; where a person and the machine disagree the
        machine's verdict stands, and the disagreement is counted. Reviews of items that changed since are stale and not
        applied. Per system, trials by the basis of their score:
      </p>
      <ul>
        {rows.map((b) => (
          <li key={b.system}>
            {b.system}: judge {b.judge}, judge + reviews {b.judgeAndReviews}, reviews only {b.reviewsOnly};{' '}
            {b.disagreements} disagreement{b.disagreements === 1 ? '' : 's'}, {b.stale} stale review
            {b.stale === 1 ? '' : 's'}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function DeliveryView({ rows }: { rows: Overview['delivery'] }) {
  if (rows.length === 0) return null;
  return (
    <section data-testid="delivery">
      <h2>Projects: final delivery and process</h2>
      <table>
        <thead>
          <tr>
            <th>system</th>
            <th>runs</th>
            <th>final</th>
            <th>95% CI</th>
            <th>process</th>
            <th>95% CI</th>
            <th>checkpoints passed / judged</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.system}>
              <td>{r.system}</td>
              <td>{r.projects}</td>
              <td class="num">{num(r.final_mean)}</td>
              <td class="num">{ci(r.final_ci_low, r.final_ci_high)}</td>
              <td class="num">{num(r.process_mean)}</td>
              <td class="num">{ci(r.process_ci_low, r.process_ci_high)}</td>
              <td class="num">
                {r.checkpoints_passed} / {r.checkpoints_judged} (of {r.checkpoints})
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
