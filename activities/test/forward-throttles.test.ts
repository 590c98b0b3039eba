// A running agent's throttled answers reach its job as they happen: only what is new, at most once
// per interval while it runs, the rest when it ends; a failed report never fails the agent's run.
import { describe, expect, it } from 'vitest';
import type { ThrottleReport } from '@assay/core';
import { forwardThrottles } from '../src/forward-throttles.js';

function setUp(fail = false) {
  const sent: ThrottleReport[] = [];
  let seen = 0;
  let now = 0;
  const forwarder = forwardThrottles({
    jobId: 'job',
    endpoint: 'http://llm.test:9',
    unit: 'assay-trial:job:s:t:1',
    read: () => seen,
    notify: async (jobId, report) => {
      expect(jobId).toBe('job');
      sent.push(report);
      if (fail) throw new Error('the job has ended');
    },
    everyMs: 2000,
    now: () => now,
  });
  return {
    forwarder,
    sent,
    see: (n: number) => (seen += n),
    at: (t: number) => (now = t),
  };
}

describe('forwardThrottles', () => {
  it('sends only what is new, at most every interval, and the rest on flush', async () => {
    const f = setUp();
    f.forwarder.poll();
    expect(f.sent).toEqual([]); // nothing seen: nothing sent
    f.see(3);
    f.forwarder.poll();
    f.see(2);
    f.at(1000);
    f.forwarder.poll(); // within the interval: held
    f.at(2500);
    f.forwarder.poll();
    f.see(1);
    await f.forwarder.flush();
    await f.forwarder.flush(); // nothing new
    expect(f.sent.map((r) => r.count)).toEqual([3, 2, 1]);
    expect(f.sent[0]).toEqual({ endpoint: 'http://llm.test:9', count: 3, unit: 'assay-trial:job:s:t:1' });
  });

  it('swallows a failed report', async () => {
    const f = setUp(true);
    f.see(4);
    await expect(f.forwarder.flush()).resolves.toBeUndefined();
    expect(f.sent).toHaveLength(1);
  });
});
