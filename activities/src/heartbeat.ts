import { Context } from '@temporalio/activity';

/** Run `fn` while heartbeating every 2 s (parsing and judging run off the event loop); `stage` read at each beat. */
export async function withHeartbeat<T>(stage: string | (() => string), fn: () => Promise<T>): Promise<T> {
  // A local activity (prepare) has no heartbeat: its workflow task stands for it.
  if (Context.current().info.isLocal) return fn();
  return heartbeatWhile(() => ({ stage: typeof stage === 'string' ? stage : stage() }), 2000, fn);
}

/** Heartbeat `details()` every `everyMs` while `work` runs: what the activity is doing, for whoever looks. */
export async function heartbeatWhile<T>(details: () => unknown, everyMs: number, work: () => Promise<T>): Promise<T> {
  const ctx = Context.current();
  const beat = setInterval(() => ctx.heartbeat(details()), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(beat);
  }
}

/**
 * The workflow asked for this activity's cancellation (`assay cancel`, `pause --now`): not an attempt cancelled
 * because its heartbeat timed out (a retry re-attaches to what it started) or its worker is shutting down.
 */
export function cancelRequested(ctx: Context = Context.current()): boolean {
  return ctx.cancellationSignal.aborted && ctx.cancellationDetails?.cancelRequested === true;
}

/** Wrap every activity so it heartbeats while it runs: a lost worker is noticed within the heartbeat timeout. */
export function heartbeating<T extends Record<string, (...args: never[]) => Promise<unknown>>>(activities: T): T {
  return Object.fromEntries(
    Object.entries(activities).map(([name, fn]) => [
      name,
      (...args: never[]) => withHeartbeat(name, () => fn(...args)),
    ]),
  ) as T;
}

/** Fault injection for chaos tests: `ASSAY_FAULT_DELAYS="evaluate=6000,snapshot=3000"` holds those steps. */
export function parseFaultDelays(spec: string | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of (spec ?? '').split(',')) {
    const [k, v] = part.split('=');
    if (k && v && Number.isFinite(Number(v))) out[k.trim()] = Number(v);
  }
  return out;
}

/** Hold this long, heartbeating, before the real work (chaos tests only). */
export async function holdForFaultInjection(ms: number): Promise<void> {
  if (ms <= 0) return;
  const ctx = Context.current();
  for (let waited = 0; waited < ms; waited += 500) {
    ctx.heartbeat({ faultDelay: waited });
    await ctx.sleep(500);
  }
}
