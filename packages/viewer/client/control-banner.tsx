// The job's control state on the overview (from job-control.json): a banner while it is paused,
// cancelling or cancelled (why, by whom, since when), and a line with its concurrency, the
// endpoints back-pressure limits and the spend so far against the budget.
import type { Overview } from './api.js';
import { num } from './format.js';

type ControlView = NonNullable<Overview['sources'][number]['control']>;
type ControlFile = ControlView['file'];
type Spend = NonNullable<ControlFile['spend']>;

const TITLES: Record<ControlFile['state'], string> = {
  running: 'Running',
  paused: 'Paused',
  cancelling: 'Cancelling',
  cancelled: 'Cancelled',
  done: 'Done',
};

const BY: Record<NonNullable<ControlFile['pausedBy']>, string> = {
  pause: 'assay pause',
  'pause-now': 'assay pause --now',
  budget: 'the budget',
};

const time = (iso: string): string => new Date(iso).toLocaleString();

/** `usd 0.19 of 0.15, tokens 12000`: what the budget counts, against its limits where it has them. */
function spendText(spend: Spend, budget: ControlFile['budget']): string {
  const parts = (['usd', 'tokens', 'agentHours'] as const).map((k) => {
    const limit = budget?.[k];
    const value = k === 'tokens' ? String(Math.round(spend[k])) : num(spend[k], 2);
    return limit === undefined ? `${k} ${value}` : `${k} ${value} of ${limit}`;
  });
  return parts.join(', ') + (spend.unpricedTokens > 0 ? ` (${Math.round(spend.unpricedTokens)} tokens unpriced)` : '');
}

export function ControlBanner({ control }: { control: ControlView }) {
  const f = control.file;
  const stopped = f.state === 'paused' || f.state === 'cancelling' || f.state === 'cancelled';
  return (
    <div class={stopped ? 'control stopped' : 'control'} data-testid="job-control" data-state={f.state}>
      <div class="control-head">
        <b>{TITLES[f.state]}</b>
        {f.reason && f.state !== 'running' && <span> — {f.reason}</span>}
        <span class="muted">
          {' · since '}
          {time(f.since)}
        </span>
        {f.pausedBy && <span class="muted"> · by {BY[f.pausedBy]}</span>}
      </div>
      <div class="control-facts">
        <span>concurrency {f.concurrency}</span>
        {control.lanes.map((l) => (
          <span key={l} class="lanes" data-testid="lanes">
            back-pressure: {l}
          </span>
        ))}
        {f.spend && (
          <span data-testid="spend">
            {f.budget ? `budget (${f.budget.covers})` : 'spend'}: {spendText(f.spend, f.budget)}
            {f.projected && f.state !== 'done' && f.state !== 'cancelled' && (
              <span class="muted"> · projected usd {num(f.projected.usd, 2)}</span>
            )}
          </span>
        )}
        {f.spendBy && (
          <span data-testid="spend-by">
            agents usd {num(f.spendBy.agents.usd, 2)} · judges usd {num(f.spendBy.judges.usd, 2)}
          </span>
        )}
        <span class="muted">updated {time(f.updatedAt)}</span>
      </div>
    </div>
  );
}
