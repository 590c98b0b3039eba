// The labelling keys: s satisfied, n not satisfied, c can't tell, j/k next/previous, / the note. Typing in
// a field is left alone (Escape leaves it).
import { useEffect, useRef } from 'preact/hooks';

export type ReviewKeyDecision = 'satisfied' | 'not-satisfied' | 'cant-tell';

const DECISION_KEYS: Record<string, ReviewKeyDecision> = { s: 'satisfied', n: 'not-satisfied', c: 'cant-tell' };

export interface ReviewKeyActions {
  decide: (d: ReviewKeyDecision) => void;
  move: (step: 1 | -1) => void;
  focusNote: () => void;
}

export function useReviewKeys(actions: ReviewKeyActions) {
  // The latest actions as rendered (a key pressed right after typing a note must see that note), one listener.
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    const handler = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) {
        if (e.key === 'Escape') t.blur();
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const on = latest.current;
      const decision = DECISION_KEYS[e.key];
      if (decision) on.decide(decision);
      else if (e.key === 'j' || e.key === 'ArrowDown') on.move(1);
      else if (e.key === 'k' || e.key === 'ArrowUp') on.move(-1);
      else if (e.key === '/') on.focusNote();
      else return;
      e.preventDefault();
    };
    addEventListener('keydown', handler);
    return () => removeEventListener('keydown', handler);
  }, []);
}
