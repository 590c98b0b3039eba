// `assay run`'s per-unit lines, from successive progress snapshots of the job workflow.
import type { JobProgress } from '@assay/core';

/** Prints each finished trial or project once, whichever progress snapshot shows it first. */
export function createProgressReporter(log: (line: string) => void): (p: JobProgress) => void {
  const seen = new Set<string>();
  const f = (x: number | null): string => (x === null ? '—' : x.toFixed(1));
  return (p) => {
    for (const d of p.done) {
      if (seen.has(d.key) || d.status === 'skipped') continue;
      seen.add(d.key);
      if (d.kind === 'project') {
        const unjudged = d.unjudged ? `, ${d.unjudged} checkpoint criteria unjudged` : '';
        log(`  ${d.key}: ${d.status}, final ${f(d.score)}, process ${f(d.decided)}${unjudged}`);
        continue;
      }
      const score = d.score !== null ? f(d.score) : d.decided !== null ? `${f(d.decided)} (decided items)` : '—';
      log(`  ${d.key}: ${d.status}, score ${score}${d.unjudged ? `, ${d.unjudged} unjudged` : ''}`);
    }
  };
}
