// The deliverables of the queued item as the judge saw them (loaded without any verdict): a task item's trial's,
// a project criterion's checkpoint snapshot outputs or final package. Once the judge's decision may be shown,
// the pane opens at the item's first anchor: the anchors come with that decision and nothing else, so in blind
// mode no other item's verdict reaches the page either. A click in the pane picks an anchor
// (`onPick`) for the reviewer's evidence.
import { useMemo } from 'preact/hooks';
import { api, type QueueEntry } from './api.js';
import { DeliverablePane, type Focus } from './deliverable-pane.js';
import { useLoaded } from './use-loaded.js';

/** Where a project criterion was judged: `checkpoint <subtask>` or `final package`. */
export const scopeLabel = (scope: string): string => (scope === 'final' ? 'final package' : `checkpoint ${scope}`);

interface Props {
  source: string;
  entry: QueueEntry;
  onPick?: (anchor: string) => void;
}

export function ReviewEvidence({ source, entry, onPick }: Props) {
  const unitId = entry.unit.replace(/^(tasks|projects)\//, '');
  // A project's view: checkpoint n (0-based) or the final package; neither carries verdicts.
  const which = entry.checkpoint === null ? 'final' : String(entry.checkpoint);
  const files = useLoaded(
    () =>
      entry.scope === null
        ? api.reviewDeliverables(source, entry.system, unitId, entry.trial)
        : api.checkpointView(source, entry.system, unitId, entry.trial, which),
    [source, entry.system, entry.unit, entry.trial, entry.scope, which],
  );
  // The judge's anchors come with its decision (in the queue, or the answer to the reviewer's POST).
  const anchor = entry.judge?.anchors[0];
  const focus = useMemo<Focus | null>(
    () => (anchor ? { file: anchor.file, anchor: anchor.anchor, page: anchor.page } : null),
    [entry.itemId, entry.scope, anchor?.file, anchor?.anchor],
  );
  if (files.error) return <p class="bad">{files.error}</p>;
  if (!files.data) return <p class="muted">loading the deliverables…</p>;
  return (
    <>
      <h2 data-testid="review-deliverables-heading">
        Deliverables{entry.scope === null ? '' : ` at the ${scopeLabel(entry.scope)}`}{' '}
        {onPick && <span class="muted">— click a cell, paragraph, line or page image to add it as evidence</span>}
      </h2>
      <DeliverablePane
        source={source}
        files={files.data.files}
        notes={files.data.notes}
        focus={focus}
        onPick={onPick}
      />
    </>
  );
}
