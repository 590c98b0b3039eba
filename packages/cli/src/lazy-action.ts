// A command's module is imported only when that command runs: `assay --help` or `validate` must
// not load the Temporal worker, pdfjs or the model SDKs that other commands need.

type Action = (...args: never[]) => unknown;

/** A commander action that imports `load()` on first call and calls its export `name`. */
export function lazyAction<M extends Record<K, Action>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): (...args: Parameters<M[K]>) => Promise<void> {
  return async (...args) => {
    const module = await load();
    await module[name](...args);
  };
}
