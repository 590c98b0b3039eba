// The deliverables of the queued item's trial, as the judge saw them (loaded without any verdict). Once the
// judge's decision may be shown, the trial's items are loaded too and the pane opens at the item's first anchor
// (the anchors come from the judge's evidence and reason, so not before).
import { useMemo } from 'preact/hooks';
import { api, type QueueEntry } from './api.js';
import { DeliverablePane, type Focus } from './deliverable-pane.js';
import { useLoaded } from './use-loaded.js';

export function ReviewEvidence({ source, entry }: { source: string; entry: QueueEntry }) {
  const task = entry.unit.replace(/^tasks\//, '');
  const shown = entry.judge !== null;
  const files = useLoaded(
    () => api.reviewDeliverables(source, entry.system, task, entry.trial),
    [source, entry.system, task, entry.trial],
  );
  const detail = useLoaded(
    () => (shown ? api.trial(source, entry.system, task, entry.trial) : Promise.resolve(null)),
    [source, entry.system, task, entry.trial, shown],
  );
  const anchor = shown ? detail.data?.items.find((i) => i.itemId === entry.itemId)?.anchors[0] : undefined;
  const focus = useMemo<Focus | null>(
    () => (anchor ? { file: anchor.file, anchor: anchor.anchor, page: anchor.page } : null),
    [entry.itemId, anchor?.file, anchor?.anchor],
  );
  if (files.error) return <p class="bad">{files.error}</p>;
  if (!files.data) return <p class="muted">loading the deliverables…</p>;
  return (
    <>
      <h2>Deliverables</h2>
      <DeliverablePane source={source} files={files.data.files} notes={files.data.notes} focus={focus} />
    </>
  );
}
