// A Harbor trial's verifier rewards: each named reward as written (as the step list shows a step's), the keys
// the trial's score was made of marked, and why there is no reward when there is none.
import type { TrialDetail } from './api.js';

type HarborRewards = NonNullable<TrialDetail['harborRewards']>;

export function HarborRewardList({ rewards: h }: { rewards: HarborRewards }) {
  return (
    <section class="harbor-rewards" data-testid="harbor-rewards">
      <h2>Verifier rewards{h.file ? ` (${h.file})` : ''}</h2>
      {h.rewards.length > 0 && (
        <table>
          <thead>
            <tr>
              <th>key</th>
              <th>reward</th>
              <th>scored</th>
            </tr>
          </thead>
          <tbody>
            {h.rewards.map((r) => (
              <tr key={r.key} class={r.scored ? 'scored' : ''}>
                <td>{r.key}</td>
                <td>{r.value}</td>
                <td>{r.scored ? '✓' : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p class={h.reward === null ? 'bad' : 'muted'}>
        trial reward {h.reward ?? '—'}: {h.scoredBy}
        {h.reason ? `; ${h.reason}` : ''}
      </p>
    </section>
  );
}
