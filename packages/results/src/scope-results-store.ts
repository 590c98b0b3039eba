// A view of a store below a key prefix, for any backend. Blob operations pass through:
// there is one content-addressed area per results root.
import { assertResultsKey, joinKey, normalizePrefix } from './results-key.js';
import type { ResultsStore } from './results-store.js';

export function scopeResultsStore(store: ResultsStore, prefix: string): ResultsStore {
  const scope = normalizePrefix(prefix);
  if (scope === '') return store;
  const inner = (key: string): string => joinKey(scope, assertResultsKey(key));
  return {
    location: `${store.location.replace(/\/$/, '')}/${scope}`,
    putJson: async (key, value) => store.putJson(inner(key), value),
    getJson: async (key) => store.getJson(inner(key)),
    putText: async (key, text) => store.putText(inner(key), text),
    getText: async (key) => store.getText(inner(key)),
    putBinary: async (key, bytes) => store.putBinary(inner(key), bytes),
    getBinary: async (key) => store.getBinary(inner(key)),
    has: async (key) => store.has(inner(key)),
    copy: async (from, to) => store.copy(inner(from), inner(to)),
    delete: async (key) => store.delete(inner(key)),
    list: async (sub) => {
      const keys = await store.list(joinKey(scope, normalizePrefix(sub)));
      return keys.map((k) => k.slice(scope.length + 1));
    },
    putBlob: (localFile) => store.putBlob(localFile),
    putBytes: (bytes) => store.putBytes(bytes),
    readBlob: (sha256) => store.readBlob(sha256),
    copyBlobTo: (sha256, localFile) => store.copyBlobTo(sha256, localFile),
    scoped: (sub) => scopeResultsStore(store, joinKey(scope, normalizePrefix(sub))),
  };
}
