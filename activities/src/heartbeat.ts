import { Context } from '@temporalio/activity';

/** Run `fn` while heartbeating every 2 s (parsing and judging run off the event loop). */
export async function withHeartbeat<T>(stage: string, fn: () => Promise<T>): Promise<T> {
  const ctx = Context.current();
  const beat = setInterval(() => ctx.heartbeat({ stage }), 2000);
  try {
    return await fn();
  } finally {
    clearInterval(beat);
  }
}

/** Fault injection for chaos tests: hold this long, heartbeating, before the real work. */
export async function holdForFaultInjection(ms: number): Promise<void> {
  if (ms <= 0) return;
  const ctx = Context.current();
  for (let waited = 0; waited < ms; waited += 500) {
    ctx.heartbeat({ faultDelay: waited });
    await ctx.sleep(500);
  }
}
