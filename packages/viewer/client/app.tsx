// The app shell: the route from the URL hash, and a poll of the records' revision so every page
// refreshes while a run is in progress.
import { useEffect, useState } from 'preact/hooks';
import { AgreementPage } from './agreement-page.js';
import { api } from './api.js';
import { ComparePage } from './compare-page.js';
import { OverviewPage } from './overview-page.js';
import { ProjectPage } from './project-page.js';
import { ReviewPage } from './review-page.js';
import { useRoute } from './route.js';
import { TrialPage } from './trial-page.js';
import { useLoaded } from './use-loaded.js';

const POLL_MS = 3000;

function useRevision(): string {
  const [revision, setRevision] = useState('');
  useEffect(() => {
    let live = true;
    const tick = () =>
      api
        .revision()
        .then((r) => live && setRevision(r.revision))
        .catch(() => undefined);
    void tick();
    const timer = setInterval(tick, POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, []);
  return revision;
}

export function App() {
  const route = useRoute();
  const revision = useRevision();
  return (
    <>
      <header class="top">
        <a href="#/">assay view</a>
        <span class="muted" data-testid="revision">
          records {revision || '…'}
        </span>
      </header>
      {route.page === 'compare' ? (
        <ComparePage a={route.a} b={route.b} revision={revision} />
      ) : route.page === 'agreement' ? (
        <AgreementPage source={route.source} revision={revision} />
      ) : route.page === 'review' ? (
        <ReviewPage source={route.source} query={route.query} />
      ) : route.page === 'trial' ? (
        <TrialPage route={route} revision={revision} />
      ) : route.page === 'project' ? (
        <ProjectPage route={route} revision={revision} />
      ) : (
        <Overview query={route.query} revision={revision} />
      )}
    </>
  );
}

function Overview({ query, revision }: { query: URLSearchParams; revision: string }) {
  const state = useLoaded(() => api.overview(), [revision]);
  if (state.error && !state.data) return <p class="bad">{state.error}</p>;
  if (!state.data) return <p class="muted">loading…</p>;
  return <OverviewPage data={state.data} query={query} />;
}
