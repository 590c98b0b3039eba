// Routes live in the URL hash, so every trial, item, project and checkpoint has a deep link.
import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { page: 'overview'; query: URLSearchParams }
  | { page: 'compare'; a: string; b: string }
  | { page: 'review'; source: string; query: URLSearchParams }
  | { page: 'agreement'; source: string }
  | { page: 'trial'; source: string; system: string; task: string; trial: number; item: string | null }
  | {
      page: 'project';
      source: string;
      system: string;
      project: string;
      trial: number;
      checkpoint: number | null;
      criterion: string | null;
    };

function parseRoute(hash: string): Route {
  const [pathPart = '', queryPart = ''] = hash.replace(/^#/, '').split('?');
  const parts = pathPart.split('/').filter(Boolean).map(decodeURIComponent);
  const [kind, source, system, id, trial, sub, subId] = parts;
  if (kind === 'compare' && source && system) return { page: 'compare', a: source, b: system };
  if (kind === 'agreement' && source) return { page: 'agreement', source };
  if (kind === 'review' && source) return { page: 'review', source, query: new URLSearchParams(queryPart) };
  if (kind === 'trial' && source && system && id && trial)
    return {
      page: 'trial',
      source,
      system,
      task: id,
      trial: Number(trial),
      item: sub === 'item' ? (subId ?? null) : null,
    };
  if (kind === 'project' && source && system && id && trial) {
    const rest = parts.slice(5);
    const at = (k: string) => {
      const i = rest.indexOf(k);
      return i >= 0 ? (rest[i + 1] ?? null) : null;
    };
    const cp = at('checkpoint');
    return {
      page: 'project',
      source,
      system,
      project: id,
      trial: Number(trial),
      checkpoint: cp === null ? null : Number(cp),
      criterion: at('criterion'),
    };
  }
  return { page: 'overview', query: new URLSearchParams(queryPart) };
}

const enc = encodeURIComponent;

export const links = {
  compare: (a: string, b: string) => `#/compare/${enc(a)}/${enc(b)}`,
  review: (source: string, query?: URLSearchParams) =>
    `#/review/${enc(source)}${query?.toString() ? `?${query.toString()}` : ''}`,
  agreement: (source: string) => `#/agreement/${enc(source)}`,
  trial: (source: string, system: string, task: string, trial: number, item?: string | null) =>
    `#/trial/${enc(source)}/${enc(system)}/${enc(task)}/${trial}${item ? `/item/${enc(item)}` : ''}`,
  project: (
    source: string,
    system: string,
    project: string,
    trial: number,
    checkpoint?: number | null,
    criterion?: string | null,
  ) =>
    `#/project/${enc(source)}/${enc(system)}/${enc(project)}/${trial}` +
    (checkpoint !== null && checkpoint !== undefined ? `/checkpoint/${checkpoint}` : '') +
    (criterion ? `/criterion/${enc(criterion)}` : ''),
};

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

/** Replace the hash without adding a history entry per key press. */
export function replaceHash(hash: string): void {
  history.replaceState(null, '', hash);
  dispatchEvent(new HashChangeEvent('hashchange'));
}
