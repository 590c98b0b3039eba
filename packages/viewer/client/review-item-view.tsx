// One queued item: what it asks, where it is, the judge's decision (hidden in blind mode until the reviewer
// decided), the reviewer's own latest decision, and the trial's deliverables.
import type { ComponentChildren } from 'preact';
import type { QueueEntry } from './api.js';
import { decisionClass } from './format.js';
import { ReviewEvidence } from './review-evidence.js';
import { links } from './route.js';

interface Props {
  source: string;
  entry: QueueEntry;
  blind: boolean;
  /** The reviewer's controls, kept beside the item (the deliverables column is long). */
  children?: ComponentChildren;
}

export function ReviewItemView({ source, entry, blind, children }: Props) {
  const task = entry.unit.replace(/^tasks\//, '');
  return (
    <div class="split">
      <section class="review-item" data-testid="review-item" data-item={entry.itemId}>
        <h2>
          {entry.itemId}{' '}
          <span class="muted">
            {task} · {entry.system} · trial {entry.trial}
          </span>
        </h2>
        <p class="criterion" data-testid="review-text">
          {entry.text ?? 'The benchmark folder is not available: the item text is not shown.'}
        </p>
        <p class="muted">
          {entry.importance} · {entry.dimension}
          {entry.check ? ` · check: ${entry.check}` : ''}
        </p>
        {entry.judge ? (
          <p data-testid="judge-decision">
            judge: <span class={`decision ${decisionClass(entry.judge.decision)}`}>{entry.judge.decision}</span>
            <span class="reason"> — {entry.judge.reason}</span>
          </p>
        ) : (
          <p class="muted" data-testid="judge-hidden">
            judge: hidden until you decide (blind)
          </p>
        )}
        {entry.reviewed && (
          <p data-testid="your-review">
            your review: <b>{entry.reviewed.decision}</b>
            {entry.reviewed.note ? ` — ${entry.reviewed.note}` : ''}
            {entry.reviewed.stale ? <span class="bad"> (the item changed since: stale)</span> : ''}
          </p>
        )}
        {(!blind || entry.judge) && (
          <a href={links.trial(source, entry.system, task, entry.trial, entry.itemId)}>open the trial at this item</a>
        )}
        {children}
      </section>
      <section>
        <ReviewEvidence source={source} entry={entry} />
      </section>
    </div>
  );
}
