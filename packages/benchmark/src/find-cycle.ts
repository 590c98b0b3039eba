/** Depth-first search for a dependency cycle; returns the ids along it. */
export function findCycle(list: readonly { id: string; dependsOn: readonly string[] }[]): string[] | null {
  const deps = new Map(list.map((c) => [c.id, c.dependsOn]));
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === 'done') return null;
    if (state.get(id) === 'open') return [...stack.slice(stack.indexOf(id)), id];
    state.set(id, 'open');
    stack.push(id);
    for (const dep of deps.get(id) ?? []) {
      if (!deps.has(dep)) continue;
      const found = visit(dep);
      if (found) return found;
    }
    stack.pop();
    state.set(id, 'done');
    return null;
  };
  for (const c of list) {
    const found = visit(c.id);
    if (found) return found;
  }
  return null;
}
