// A multi-step Harbor trial's steps, as its record keeps them: each step's verifier rewards and score, how
// long its agent and verifier took, whether it was restarted from the previous checkpoint, and why the
// remaining steps did not run.
import type { TrialDetail } from './api.js';
import { num } from './format.js';

type Steps = NonNullable<TrialDetail['record']['steps']>;

export function StepList({ steps, strategy, declared }: { steps: Steps; strategy: string; declared: string[] }) {
  const skipped = declared.slice(steps.length);
  return (
    <section class="steps">
      <h2>
        Steps ({steps.length} of {declared.length} ran; trial reward: {strategy})
      </h2>
      <table>
        <thead>
          <tr>
            <th>step</th>
            <th>score</th>
            <th>rewards</th>
            <th>agent</th>
            <th>verifier</th>
            <th>notes</th>
          </tr>
        </thead>
        <tbody>
          {steps.map((s) => (
            <tr key={s.name}>
              <td>{s.name}</td>
              <td>{num(s.score)}</td>
              <td>
                {Object.entries(s.verifier.rewards)
                  .map(([k, v]) => `${k} ${v}`)
                  .join(', ') ||
                  (s.verifier.reason ?? '—')}
              </td>
              <td>
                {num(s.agent.durationSeconds, 2)} s, exit {s.agent.exitCode ?? '—'}
                {s.agent.timedOut ? ', timed out' : ''}
              </td>
              <td>{num(s.verifier.durationSeconds, 2)} s</td>
              <td class={s.aborted ? 'bad' : ''}>
                {s.agent.restarted ? 'restarted from the previous checkpoint; ' : ''}
                {s.aborted ? `stopped here (${s.aborted.by}): ${s.aborted.reason}` : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {skipped.length > 0 && <p class="muted">not run: {skipped.join(', ')}</p>}
    </section>
  );
}
