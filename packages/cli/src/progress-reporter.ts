// `assay run`'s per-unit lines, from successive progress snapshots of the job workflow.
import {
  projectTrialKey,
  trialKey,
  type JobProgress,
  type ProjectRecord,
  type TrialOutcome,
  type TrialRecord,
} from '@assay/core';

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

/** A recorded trial as a progress line: the records are the truth when progress snapshots missed it. */
export function outcomeOfTrialRecord(r: TrialRecord): TrialOutcome {
  const unjudged = r.verdicts.filter((v) => v.decision === 'unjudged').length;
  const key = trialKey(r.system.id, r.task.id, r.trial);
  return { key, kind: 'task', status: r.status, score: r.score.value, decided: r.score.decided, unjudged };
}

export function outcomeOfProjectRecord(r: ProjectRecord): TrialOutcome {
  const unjudged = r.checkpoints.reduce((a, c) => a + c.unjudged.length, 0);
  const key = projectTrialKey(r.system.id, r.project.id, r.trial);
  return { key, kind: 'project', status: 'completed', score: r.final.score, decided: r.process.score, unjudged };
}
