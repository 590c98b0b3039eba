import { Context } from '@temporalio/activity';

/** Run `fn` while heartbeating every 2 s (parsing and judging run off the event loop); `stage` read at each beat. */
export async function withHeartbeat<T>(stage: string | (() => string), fn: () => Promise<T>): Promise<T> {
  const ctx = Context.current();
  // A local activity (prepare) has no heartbeat: its workflow task stands for it.
  if (ctx.info.isLocal) return fn();
  const beat = setInterval(() => ctx.heartbeat({ stage: typeof stage === 'string' ? stage : stage() }), 2000);
  try {
    return await fn();
  } finally {
    clearInterval(beat);
  }
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
