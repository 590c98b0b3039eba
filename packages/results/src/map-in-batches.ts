/** `fn` over `items`, at most `size` at a time, results in input order. */
export async function mapInBatches<A, B>(items: readonly A[], size: number, fn: (a: A) => Promise<B>): Promise<B[]> {
  const out: B[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}
