// The queue one item at a time: the reviewer decides with a key (s / n / c), moves with j / k, writes a note
// after `/`, picks evidence anchors by clicking in the deliverables (chips; a typed list beside them). A decision
// is stored at once (POST /api/reviews); in blind mode the judge's decision comes back with it and is shown then.
// Once every item of the queue has this reviewer's (current) review, a summary says how they decided and how
// often they agree with the judge.
import { useRef, useState } from 'preact/hooks';
import { api, type QueueEntry, type ReviewQueue } from './api.js';
import { ReviewItemView } from './review-item-view.js';
import { links } from './route.js';
import { useReviewKeys, type ReviewKeyActions, type ReviewKeyDecision } from './use-review-keys.js';

type Decided = Pick<QueueEntry, 'judge' | 'reviewed'>;

const keyOf = (e: QueueEntry) => `${e.unit}/${e.system}/${e.trial}/${e.scope ?? ''}/${e.itemId}`;

export function ReviewSession(props: { queue: ReviewQueue; index: number; setIndex: (i: number) => void }) {
  const { queue, setIndex } = props;
  const [decided, setDecided] = useState<Record<string, Decided>>({});
  const [note, setNote] = useState('');
  const [evidence, setEvidence] = useState('');
  const [picked, setPicked] = useState<string[]>([]);
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
          scope: entry.scope,
          decision,
          note,
          evidence: [
            ...new Set([
              ...evidence
                .split(',')
                .map((x) => x.trim())
                .filter(Boolean),
              ...picked,
            ]),
          ],
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
      setPicked([]);
      setIndex(next);
    },
    focusNote: () => noteRef.current?.focus(),
  };
  useReviewKeys(keys);

  const pick = (anchor: string) => setPicked((p) => (p.includes(anchor) ? p : [...p, anchor]));
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
      <ReviewItemView source={queue.source} entry={entry} blind={queue.blind} onPick={pick}>
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
          placeholder="more evidence anchors (optional, comma-separated), e.g. model.xlsx!Summary!B4, memo.docx paragraph 12"
          value={evidence}
          onInput={(e) => setEvidence((e.target as HTMLInputElement).value)}
        />
        <div class="picked" data-testid="picked-anchors">
          {picked.length === 0 ? (
            <span class="muted">click a cell, paragraph, line or page image in the deliverables to cite it</span>
          ) : (
            picked.map((a) => (
              <span key={a} class="chip" data-testid="picked-anchor" data-anchor={a}>
                {a}
                <button
                  type="button"
                  aria-label={`remove ${a}`}
                  title="remove"
                  onClick={() => setPicked((p) => p.filter((x) => x !== a))}
                >
                  ×
                </button>
              </span>
            ))
          )}
        </div>
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
