// Where a source's reviews are kept: with the job's own results, also for a re-judged setup (`judges/<name>`),
// each review naming the records it is of (`source`).
import { openResultsStore, type ResultsStore } from '@assay/results';
import type { ViewerSource } from './viewer-source.js';

/** The `source` a review of this viewer source names: `job`, or `judges/<name>`. */
export const reviewSourceName = (source: ViewerSource): string =>
  source.judge === null ? 'job' : `judges/${source.judge}`;

const stores = new WeakMap<ViewerSource, ResultsStore>();

/** The job's own results store, where reviews live (a judge setup's source is scoped under it). */
export function reviewStore(source: ViewerSource): ResultsStore {
  let store = stores.get(source);
  if (!store) {
    store = source.judge === null ? source.store : openResultsStore(source.dir);
    stores.set(source, store);
  }
  return store;
}
