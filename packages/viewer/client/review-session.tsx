// The queue one item at a time: the reviewer decides with a key (s / n / c), moves with j / k, writes a note
// after `/`. A decision is stored at once (POST /api/reviews); in blind mode the judge's decision comes back
// with it and is shown then.
import { useRef, useState } from 'preact/hooks';
import { api, type QueueEntry, type ReviewQueue } from './api.js';
import { ReviewItemView } from './review-item-view.js';
import { useReviewKeys, type ReviewKeyActions, type ReviewKeyDecision } from './use-review-keys.js';

type Decided = Pick<QueueEntry, 'judge' | 'reviewed'>;

const keyOf = (e: QueueEntry) => `${e.unit}/${e.system}/${e.trial}/${e.itemId}`;

export function ReviewSession(props: { queue: ReviewQueue; index: number; setIndex: (i: number) => void }) {
  const { queue, setIndex } = props;
  const [decided, setDecided] = useState<Record<string, Decided>>({});
  const [note, setNote] = useState('');
  const [evidence, setEvidence] = useState('');
  const [status, setStatus] = useState<{ saving: boolean; error: string | null }>({ saving: false, error: null });
  const noteRef = useRef<HTMLTextAreaElement>(null);
  const count = queue.entries.length;
  const index = Math.min(Math.max(0, props.index), Math.max(0, count - 1));
  const base = queue.entries[index];
  const entry = base && { ...base, ...decided[keyOf(base)] };

  const keys: ReviewKeyActions = {
    decide: (decision: ReviewKeyDecision) => {
      if (!entry || status.saving) return;
      setStatus({ saving: true, error: null });
      api
        .postReview(queue.source, {
          reviewer: queue.reviewer,
          unit: entry.unit,
          system: entry.system,
          trial: entry.trial,
          itemId: entry.itemId,
          decision,
          note,
          evidence: evidence
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean),
          blind: queue.blind,
        })
        .then(({ review, judge }) => {
          const reviewed = { decision: review.decision, note: review.note, at: review.at, stale: false };
          setDecided((d) => ({ ...d, [keyOf(entry)]: { judge, reviewed } }));
          setStatus({ saving: false, error: null });
        })
        .catch((e: Error) => setStatus({ saving: false, error: e.message }));
    },
    move: (step: 1 | -1) => {
      const next = index + step;
      if (next < 0 || next >= count) return;
      setNote('');
      setEvidence('');
      setIndex(next);
    },
    focusNote: () => noteRef.current?.focus(),
  };
  useReviewKeys(keys);

  const done = queue.entries.filter((e) => (decided[keyOf(e)] ?? e).reviewed).length;
  if (!entry) return <p class="note">Nothing to review in this queue.</p>;
  return (
    <section data-testid="review-session">
      <p class="muted">
        item <b data-testid="review-position">{index + 1}</b> of {count} · {done} reviewed by {queue.reviewer}
        {queue.blind ? ' · blind' : ''} · keys: s satisfied, n not satisfied, c can't tell, j/k next/previous, / note
        (Esc leaves it)
      </p>
      <ReviewItemView source={queue.source} entry={entry} blind={queue.blind}>
        <textarea
          ref={noteRef}
          class="review-note"
          name="note"
          placeholder="note (optional), saved with your decision"
          value={note}
          onInput={(e) => setNote((e.target as HTMLTextAreaElement).value)}
          rows={2}
        />
        <input
          class="review-note"
          name="evidence"
          placeholder="evidence anchors (optional, comma-separated), e.g. model.xlsx!Summary!B4, memo.docx#p12"
          value={evidence}
          onInput={(e) => setEvidence((e.target as HTMLInputElement).value)}
        />
        <div class="review-buttons">
          <button onClick={() => keys.decide('satisfied')}>satisfied (s)</button>
          <button onClick={() => keys.decide('not-satisfied')}>not satisfied (n)</button>
          <button onClick={() => keys.decide('cant-tell')}>can't tell (c)</button>
          {status.saving && <span class="muted">saving…</span>}
          {status.error && (
            <span class="bad" data-testid="review-error">
              {status.error}
            </span>
          )}
        </div>
      </ReviewItemView>
    </section>
  );
}
