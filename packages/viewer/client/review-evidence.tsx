// The deliverables of the queued item as the judge saw them (loaded without any verdict): a task item's trial's,
// a project criterion's checkpoint snapshot outputs or final package. Once the judge's decision may be shown,
// the trial's items (the project's verdicts) are loaded too and the pane opens at the item's first anchor
// (the anchors come from the judge's evidence and reason, so not before). A click in the pane picks an anchor
// (`onPick`) for the reviewer's evidence.
import { useMemo } from 'preact/hooks';
import { api, type AnchorRef, type QueueEntry } from './api.js';
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
  const shown = entry.judge !== null;
  // A project's view: checkpoint n (0-based) or the final package; neither carries verdicts.
  const which = entry.checkpoint === null ? 'final' : String(entry.checkpoint);
  const files = useLoaded(
    () =>
      entry.scope === null
        ? api.reviewDeliverables(source, entry.system, unitId, entry.trial)
        : api.checkpointView(source, entry.system, unitId, entry.trial, which),
    [source, entry.system, entry.unit, entry.trial, entry.scope, which],
  );
  const detail = useLoaded(
    () => (shown ? judgeAnchors(source, entry, unitId) : Promise.resolve(null)),
    [source, entry.system, entry.unit, entry.trial, entry.scope, entry.itemId, shown],
  );
  const anchor = shown ? detail.data?.[0] : undefined;
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

/** The judge's anchors for the item: from the trial's items, or the project's verdicts at the item's scope. */
async function judgeAnchors(source: string, entry: QueueEntry, unitId: string): Promise<AnchorRef[]> {
  if (entry.scope === null)
    return (
      (await api.trial(source, entry.system, unitId, entry.trial)).items.find((i) => i.itemId === entry.itemId)
        ?.anchors ?? []
    );
  const project = await api.project(source, entry.system, unitId, entry.trial);
  const verdicts =
    entry.checkpoint === null ? project.final.verdicts : (project.checkpoints[entry.checkpoint]?.verdicts ?? []);
  return verdicts.find((v) => v.criterionId === entry.itemId)?.anchors ?? [];
}
