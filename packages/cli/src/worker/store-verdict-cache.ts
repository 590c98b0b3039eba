// The verdict cache in the job's results store: `judge-cache/<key[0..2]>/<key>.json`, the same
// keys and bytes as @assay/judge's directory cache, so a folder store keeps its layout and an
// s3:// location shares verdicts between every worker.
import type { CachedVerdict, VerdictCache } from '@assay/judge';
import { VERDICT_CACHE_PREFIX, type ResultsStore } from '@assay/results';

export function createStoreVerdictCache(store: ResultsStore, warn: (msg: string) => void = () => {}): VerdictCache {
  const keyOf = (key: string) => `${VERDICT_CACHE_PREFIX}/${key.slice(0, 2)}/${key}.json`;
  return {
    async get(key) {
      try {
        const entry = (await store.getJson(keyOf(key))) as CachedVerdict | null;
        return entry?.key === key ? entry : null;
      } catch (err) {
        // A corrupt entry is judged again, not trusted (the store's error names it); a store that
        // cannot be reached is an error, not a cache miss.
        if (!/is not valid JSON/.test((err as Error).message)) throw err;
        warn(`verdict cache entry unreadable, ignoring it: ${(err as Error).message}`);
        return null;
      }
    },
    async put(entry) {
      await store.putJson(keyOf(entry.key), entry);
    },
  };
}
