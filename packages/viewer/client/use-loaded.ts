// Load data for a page; reloads when a dependency (route, records revision) changes, keeping the
// previous data on screen meanwhile so a refresh during a run does not blank the page.
import { useEffect, useState } from 'preact/hooks';

export function useLoaded<T>(load: () => Promise<T>, deps: unknown[]): { data: T | null; error: string | null } {
  const [state, setState] = useState<{ data: T | null; error: string | null }>({ data: null, error: null });
  useEffect(() => {
    let live = true;
    load()
      .then((data) => live && setState({ data, error: null }))
      .catch((e: Error) => live && setState((s) => ({ data: s.data, error: e.message })));
    return () => {
      live = false;
    };
  }, deps);
  return state;
}
