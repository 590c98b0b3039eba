// Heartbeats while slow work runs, and which cancellations count as the workflow's: a stand-in activity
// context, so no Temporal server is needed.
import { asyncLocalStorage, type Context } from '@temporalio/activity';
import { describe, expect, it } from 'vitest';
import { cancelRequested, heartbeatWhile, withHeartbeat } from '../src/heartbeat.js';

function activityContext(isLocal = false) {
  const beats: unknown[] = [];
  const ctx = { info: { isLocal }, heartbeat: (d: unknown) => beats.push(d) } as unknown as Context;
  return { ctx, beats };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('heartbeating while work runs', () => {
  it('beats with the details of the moment until the work ends, and returns what it returned', async () => {
    const { ctx, beats } = activityContext();
    let n = 0;
    const out = await asyncLocalStorage.run(ctx, () =>
      heartbeatWhile(
        () => ({ n: ++n }),
        20,
        () => pause(110).then(() => 'done'),
      ),
    );
    const after = beats.length;
    await pause(60);
    expect(out).toBe('done');
    expect(after).toBeGreaterThanOrEqual(3);
    expect(beats.slice(0, 2)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(beats.length).toBe(after);
  });

  it('stops beating when the work throws', async () => {
    const { ctx, beats } = activityContext();
    const run = asyncLocalStorage.run(ctx, () =>
      heartbeatWhile(
        () => 'x',
        10,
        () => pause(35).then(() => Promise.reject(new Error('failed'))),
      ),
    );
    await expect(run).rejects.toThrow('failed');
    const after = beats.length;
    await pause(40);
    expect(beats.length).toBe(after);
  });

  it('a local activity does not beat: its workflow task stands for it', async () => {
    const { ctx, beats } = activityContext(true);
    await asyncLocalStorage.run(ctx, () => withHeartbeat('prepare', () => pause(50)));
    expect(beats).toEqual([]);
  });
});

describe('a requested cancellation', () => {
  const ctxOf = (aborted: boolean, requested: boolean | undefined) => {
    const controller = new AbortController();
    if (aborted) controller.abort();
    return {
      cancellationSignal: controller.signal,
      cancellationDetails: requested === undefined ? undefined : { cancelRequested: requested },
    } as unknown as Context;
  };

  it('is one the workflow asked for, not a heartbeat timeout or a worker shutting down', () => {
    expect(cancelRequested(ctxOf(true, true))).toBe(true);
    expect(cancelRequested(ctxOf(true, false))).toBe(false);
    expect(cancelRequested(ctxOf(true, undefined))).toBe(false);
    expect(cancelRequested(ctxOf(false, undefined))).toBe(false);
  });
});
