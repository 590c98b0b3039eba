// Labelling (#/review/<source>): who reviews and which queue (unjudged items, or a seeded stratified sample of
// decided ones; blind or not), kept in the URL; then the queue one item at a time (review-session.tsx).
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import { links, replaceHash } from './route.js';
import { ReviewSession } from './review-session.js';
import { useLoaded } from './use-loaded.js';

const NAME_KEY = 'assay.reviewer';
const QUEUE_PARAMS = ['reviewer', 'mode', 'size', 'seed', 'blind'] as const;

export function ReviewPage({ source, query }: { source: string; query: URLSearchParams }) {
  const queueQuery = new URLSearchParams(QUEUE_PARAMS.flatMap((k) => (query.has(k) ? [[k, query.get(k)!]] : [])));
  const index = Number(query.get('i') ?? 0);
  const setIndex = (i: number) => {
    const q = new URLSearchParams(queueQuery);
    q.set('i', String(i));
    replaceHash(links.review(source, q));
  };
  return (
    <main class="review">
      <nav class="crumbs">
        <a href="#/">overview</a> / review items of source {source}
      </nav>
      <ReviewSetup source={source} query={queueQuery} />
      {queueQuery.get('reviewer') ? (
        <QueueView source={source} query={queueQuery} index={index} setIndex={setIndex} />
      ) : (
        <p class="muted">
          Name the reviewer and start: reviews are stored as reviews/&lt;reviewer&gt;/… beside the records.
        </p>
      )}
    </main>
  );
}

function QueueView(props: { source: string; query: URLSearchParams; index: number; setIndex: (i: number) => void }) {
  const key = props.query.toString();
  const state = useLoaded(() => api.reviewQueue(props.source, props.query), [props.source, key]);
  if (state.error) return <p class="bad">{state.error}</p>;
  if (!state.data) return <p class="muted">loading the queue…</p>;
  return <ReviewSession key={key} queue={state.data} index={props.index} setIndex={props.setIndex} />;
}

function ReviewSetup({ source, query }: { source: string; query: URLSearchParams }) {
  const [name, setName] = useState(query.get('reviewer') ?? '');
  const [mode, setMode] = useState(query.get('mode') ?? 'unjudged');
  const [size, setSize] = useState(query.get('size') ?? '20');
  const [seed, setSeed] = useState(query.get('seed') ?? '1');
  const [blind, setBlind] = useState(query.get('blind') === '1');
  // `assay view --reviewer NAME`, else the name used last in this browser.
  useEffect(() => {
    if (name) return;
    void api
      .config()
      .catch(() => ({ reviewer: null }))
      .then((c) => setName((n) => n || c.reviewer || localStorage.getItem(NAME_KEY) || ''));
  }, []);
  const start = (e: Event) => {
    e.preventDefault();
    localStorage.setItem(NAME_KEY, name);
    const q = new URLSearchParams({ reviewer: name, mode, size, seed });
    if (blind) q.set('blind', '1');
    replaceHash(links.review(source, q));
  };
  const value = (e: Event) => (e.target as HTMLInputElement).value;
  return (
    <form class="filters" onSubmit={start} data-testid="review-setup">
      <label>
        reviewer <input name="reviewer" value={name} onInput={(e) => setName(value(e))} size={14} required />
      </label>
      <label>
        queue{' '}
        <select name="mode" value={mode} onChange={(e) => setMode(value(e))}>
          <option value="unjudged">unjudged items</option>
          <option value="sample">sample of decided items</option>
        </select>
      </label>
      {mode === 'sample' && (
        <>
          <label>
            size <input name="size" type="number" min={1} value={size} onInput={(e) => setSize(value(e))} />
          </label>
          <label>
            seed <input name="seed" type="number" value={seed} onInput={(e) => setSeed(value(e))} />
          </label>
        </>
      )}
      <label>
        <input
          name="blind"
          type="checkbox"
          checked={blind}
          onChange={(e) => setBlind((e.target as HTMLInputElement).checked)}
        />{' '}
        blind (the judge's decision shown only after yours)
      </label>
      <button type="submit" data-testid="review-start">
        start
      </button>
    </form>
  );
}
