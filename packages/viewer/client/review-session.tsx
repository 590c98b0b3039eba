// The queue one item at a time: the reviewer decides with a key (s / n / c), moves with j / k, writes a note
// after `/`, picks evidence anchors by clicking in the deliverables (chips; a typed list beside them). A decision
// is stored at once (POST /api/reviews); in blind mode the judge's decision comes back with it and is shown then.
// Once every item of the queue has this reviewer's (current) review, a summary says how they decided and how
// often they agree with the judge.
import type { Ref } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { api, type QueueEntry, type ReviewQueue } from './api.js';
import { ReviewItemView } from './review-item-view.js';
import { links } from './route.js';
import { useReviewKeys, type ReviewKeyActions, type ReviewKeyDecision } from './use-review-keys.js';

type Decided = Pick<QueueEntry, 'judge' | 'reviewed'>;

const keyOf = (e: QueueEntry) => `${e.unit}/${e.system}/${e.trial}/${e.scope ?? ''}/${e.itemId}`;

export function ReviewSession(props: { queue: ReviewQueue; index: number; setIndex: (i: number) => void }) {
  const { queue, setIndex } = props;
  const { decided, status, save } = useReviewSaving(queue);
  const draft = useReviewDraft();
  const noteRef = useRef<HTMLTextAreaElement>(null);
  const count = queue.entries.length;
  const index = Math.min(Math.max(0, props.index), Math.max(0, count - 1));
  const base = queue.entries[index];
  const entry = base && { ...base, ...decided[keyOf(base)] };

  const keys: ReviewKeyActions = {
    decide: (decision: ReviewKeyDecision) => {
      if (!entry || status.saving) return;
      save(entry, decision, draft.note, anchorsOf(draft.evidence, draft.picked));
    },
    move: (step: 1 | -1) => {
      const next = index + step;
      if (next < 0 || next >= count) return;
      draft.clear();
      setIndex(next);
    },
    focusNote: () => noteRef.current?.focus(),
  };
  useReviewKeys(keys);

  const entries = queue.entries.map((e) => ({ ...e, ...decided[keyOf(e)] }));
  const done = entries.filter((e) => e.reviewed).length;
  if (!entry) return <p class="note">Nothing to review in this queue.</p>;
  return (
    <section data-testid="review-session">
      <p class="muted">
        item <b data-testid="review-position">{index + 1}</b> of {count} · {done} reviewed by {queue.reviewer}
        {queue.blind ? ' · blind' : ''} · keys: s satisfied, n not satisfied, c can't tell, j/k next/previous, / note
        (Esc leaves it)
      </p>
      {entries.every((e) => e.reviewed && !e.reviewed.stale) && <QueueFinished queue={queue} entries={entries} />}
      <ReviewItemView source={queue.source} entry={entry} blind={queue.blind} onPick={draft.pick}>
        <DraftFields draft={draft} noteRef={noteRef} />
        <PickedAnchors picked={draft.picked} onRemove={draft.unpick} />
        <DecisionButtons decide={keys.decide} status={status} />
      </ReviewItemView>
    </section>
  );
}

/** The typed anchors and the picked ones, once each, typed first. */
const anchorsOf = (typed: string, picked: string[]) => [
  ...new Set([
    ...typed
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
    ...picked,
  ]),
];

/** Decisions stored this session (with the judge's, for blind mode) and the state of the last save. */
function useReviewSaving(queue: ReviewQueue) {
  const [decided, setDecided] = useState<Record<string, Decided>>({});
  const [status, setStatus] = useState<SaveStatus>({ saving: false, error: null });
  const save = (entry: QueueEntry, decision: ReviewKeyDecision, note: string, evidence: string[]) => {
    setStatus({ saving: true, error: null });
    api
      .postReview(queue.source, {
        reviewer: queue.reviewer,
        unit: entry.unit,
        system: entry.system,
        trial: entry.trial,
        itemId: entry.itemId,
        scope: entry.scope,
        decision,
        note,
        evidence,
        blind: queue.blind,
      })
      .then(({ review, judge }) => {
        const reviewed = { decision: review.decision, note: review.note, at: review.at, stale: false };
        setDecided((d) => ({ ...d, [keyOf(entry)]: { judge, reviewed } }));
        setStatus({ saving: false, error: null });
      })
      .catch((e: Error) => setStatus({ saving: false, error: e.message }));
  };
  return { decided, status, save };
}

interface SaveStatus {
  saving: boolean;
  error: string | null;
}

/** What the reviewer is writing for the current item; cleared on moving to another. */
function useReviewDraft() {
  const [note, setNote] = useState('');
  const [evidence, setEvidence] = useState('');
  const [picked, setPicked] = useState<string[]>([]);
  return {
    note,
    setNote,
    evidence,
    setEvidence,
    picked,
    pick: (anchor: string) => setPicked((p) => (p.includes(anchor) ? p : [...p, anchor])),
    unpick: (anchor: string) => setPicked((p) => p.filter((x) => x !== anchor)),
    clear: () => {
      setNote('');
      setEvidence('');
      setPicked([]);
    },
  };
}

type ReviewDraft = ReturnType<typeof useReviewDraft>;

// A ref on a function component is not passed on, hence `noteRef` (for the `/` key).
function DraftFields({ draft, noteRef }: { draft: ReviewDraft; noteRef: Ref<HTMLTextAreaElement> }) {
  return (
    <>
      <textarea
        ref={noteRef}
        class="review-note"
        name="note"
        placeholder="note (optional), saved with your decision"
        value={draft.note}
        onInput={(e) => draft.setNote((e.target as HTMLTextAreaElement).value)}
        rows={2}
      />
      <input
        class="review-note"
        name="evidence"
        placeholder="more evidence anchors (optional, comma-separated), e.g. model.xlsx!Summary!B4, memo.docx paragraph 12"
        value={draft.evidence}
        onInput={(e) => draft.setEvidence((e.target as HTMLInputElement).value)}
      />
    </>
  );
}

function PickedAnchors({ picked, onRemove }: { picked: string[]; onRemove: (anchor: string) => void }) {
  return (
    <div class="picked" data-testid="picked-anchors">
      {picked.length === 0 ? (
        <span class="muted">click a cell, paragraph, line or page image in the deliverables to cite it</span>
      ) : (
        picked.map((a) => (
          <span key={a} class="chip" data-testid="picked-anchor" data-anchor={a}>
            {a}
            <button type="button" aria-label={`remove ${a}`} title="remove" onClick={() => onRemove(a)}>
              ×
            </button>
          </span>
        ))
      )}
    </div>
  );
}

function DecisionButtons({ decide, status }: { decide: (d: ReviewKeyDecision) => void; status: SaveStatus }) {
  return (
    <div class="review-buttons">
      <button onClick={() => decide('satisfied')}>satisfied (s)</button>
      <button onClick={() => decide('not-satisfied')}>not satisfied (n)</button>
      <button onClick={() => decide('cant-tell')}>can't tell (c)</button>
      {status.saving && <span class="muted">saving…</span>}
      {status.error && (
        <span class="bad" data-testid="review-error">
          {status.error}
        </span>
      )}
    </div>
  );
}

/** Every item reviewed: the reviewer's decisions counted, and how many of the decided ones the judge agrees with. */
function QueueFinished({ queue, entries }: { queue: ReviewQueue; entries: QueueEntry[] }) {
  const count = (d: string) => entries.filter((e) => e.reviewed?.decision === d).length;
  // Both decided: the reviewer said satisfied / not satisfied and the judge did not leave the item unjudged.
  const both = entries.filter(
    (e) => e.reviewed && e.reviewed.decision !== 'cant-tell' && e.judge && e.judge.decision !== 'unjudged',
  );
  const agree = both.filter((e) => e.judge?.decision === e.reviewed?.decision).length;
  return (
    <p class="review-finished" data-testid="review-finished">
      <b>Queue finished</b>: all {entries.length} items reviewed by {queue.reviewer} — satisfied {count('satisfied')},
      not satisfied {count('not-satisfied')}, can't tell {count('cant-tell')}.{' '}
      {both.length > 0
        ? `You agree with the judge on ${agree} of the ${both.length} items you both decided.`
        : 'No item was decided by both you and the judge.'}{' '}
      <a href={links.agreement(queue.source)}>agreement for this source</a>
    </p>
  );
}
