// One queued item: what it asks, where it is, the judge's decision (hidden in blind mode until the reviewer
// decided), the reviewer's own latest decision, and the deliverables the judge saw: the trial's for a task
// item; for a project criterion the snapshot of the checkpoint that judged it, or the final package.
import type { ComponentChildren } from 'preact';
import type { QueueEntry } from './api.js';
import { decisionClass } from './format.js';
import { ReviewEvidence, scopeLabel } from './review-evidence.js';
import { links } from './route.js';

interface Props {
  source: string;
  entry: QueueEntry;
  blind: boolean;
  /** The reviewer's controls, kept beside the item (the deliverables column is long). */
  children?: ComponentChildren;
  /** A place clicked in the deliverables, as an evidence anchor. */
  onPick?: (anchor: string) => void;
}

export function ReviewItemView({ source, entry, blind, children, onPick }: Props) {
  const unitId = entry.unit.replace(/^(tasks|projects)\//, '');
  const { scope } = entry;
  return (
    <div class="split">
      <section class="review-item" data-testid="review-item" data-item={entry.itemId} data-scope={scope ?? ''}>
        <h2>
          {entry.itemId}{' '}
          <span class="muted">
            {unitId} · {entry.system} · trial {entry.trial}
          </span>
        </h2>
        {scope !== null && (
          <p data-testid="review-scope">
            project criterion judged at the <b>{scopeLabel(scope)}</b>
          </p>
        )}
        <p class="criterion" data-testid="review-text">
          {entry.text ?? 'The benchmark folder is not available: the item text is not shown.'}
        </p>
        <p class="muted" data-testid="review-meta">
          {scope === null ? entry.importance : entry.target ? `target: ${entry.target}` : 'no target (checkpoint)'} ·{' '}
          {entry.dimension}
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
        {(!blind || entry.judge) &&
          (scope === null ? (
            <a href={links.trial(source, entry.system, unitId, entry.trial, entry.itemId)}>
              open the trial at this item
            </a>
          ) : (
            <a
              data-testid="review-open"
              href={links.project(source, entry.system, unitId, entry.trial, entry.checkpoint, entry.itemId)}
            >
              open the project at this criterion
            </a>
          ))}
        {children}
      </section>
      <section>
        <ReviewEvidence source={source} entry={entry} onPick={onPick} />
      </section>
    </div>
  );
}
