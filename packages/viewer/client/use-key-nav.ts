// j/k (or the arrow keys) move between the rows of a list; Enter opens the current one.
import { useEffect } from 'preact/hooks';

export function useKeyNav(count: number, index: number, select: (i: number) => void, open?: (i: number) => void) {
  useEffect(() => {
    const on = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
      if (e.ctrlKey || e.metaKey || e.altKey || count === 0) return;
      if (e.key === 'j' || e.key === 'ArrowDown') select(Math.min(count - 1, index + 1));
      else if (e.key === 'k' || e.key === 'ArrowUp') select(Math.max(0, index - 1));
      else if (e.key === 'Enter' && open && index >= 0) open(index);
      else return;
      e.preventDefault();
    };
    addEventListener('keydown', on);
    return () => removeEventListener('keydown', on);
  }, [count, index, select, open]);
}
