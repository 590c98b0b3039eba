// Where a trial's time goes on its worker, for the benches: with ASSAY_PHASE_TIMINGS=1 each mark
// writes `assay-phase <workflow id> <phase> <ms>` to stderr, the time since the same workflow's
// previous mark (so a phase is named by where it ends). Off by default: one env read, no output.
import { Context } from '@temporalio/activity';

const enabled = process.env.ASSAY_PHASE_TIMINGS === '1';
const last = new Map<string, number>();

function workflowIdNow(): string | null {
  try {
    return Context.current().info.workflowExecution?.workflowId ?? null;
  } catch {
    return null; // outside an activity
  }
}

/** Start a workflow's clock (a trial's first step on this worker) without writing a line. */
export function startPhases(): void {
  if (!enabled) return;
  const id = workflowIdNow();
  if (id) last.set(id, performance.now());
}

/** The phase that ends now; `done` forgets the workflow (its last mark on this worker). */
export function markPhase(phase: string, done = false): void {
  if (!enabled) return;
  const id = workflowIdNow();
  if (!id) return;
  const now = performance.now();
  const since = last.get(id);
  if (since !== undefined) process.stderr.write(`assay-phase ${id} ${phase} ${(now - since).toFixed(1)}\n`);
  if (done) last.delete(id);
  else last.set(id, now);
  // A bench's run is bounded; a trial that failed mid-way must not grow this forever.
  if (last.size > 10_000) last.clear();
}
