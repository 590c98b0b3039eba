// A model CLI on a Harbor task forwards its throttled answers to its job as on assay's own tasks (the
// same forwarder, the endpoint the job limits): so a 429 storm on Harbor tasks lowers the lanes too.
// Oracle and nop on a Harbor task have no endpoint, and nothing is sent without a job to tell.
import { describe, expect, it } from 'vitest';
import type { SystemSpec, ThrottleReport } from '@assay/core';
import { harborThrottleForwarder } from '../src/harbor/run-harbor-agent.js';

function setUp(system: SystemSpec, notify = true) {
  const sent: [string, ThrottleReport][] = [];
  let seen = 0;
  const forwarder = harborThrottleForwarder(
    {
      trial: { jobId: 'harbor-job', system },
      workflowId: 'assay-trial:harbor-job:codex:write-hello:1',
      ...(notify ? { notifyThrottled: async (jobId: string, r: ThrottleReport) => void sent.push([jobId, r]) } : {}),
    },
    { throttled: () => seen },
  );
  return { forwarder, sent, see: (n: number) => (seen += n) };
}

const codex: SystemSpec = {
  id: 'codex',
  harness: 'codex',
  model: 'gpt-test',
  settings: { baseUrl: 'http://127.0.0.1:18080/v1' },
};

describe('harborThrottleForwarder', () => {
  it("sends a model CLI's throttles to its job, for the endpoint the job limits, only what is new", async () => {
    const f = setUp(codex);
    f.forwarder.poll();
    expect(f.sent).toEqual([]);
    f.see(5);
    f.forwarder.poll(); // the first report goes at once
    f.see(2);
    await f.forwarder.flush(); // the rest when the agent's run ends
    await f.forwarder.flush();
    expect(f.sent).toEqual([
      [
        'harbor-job',
        { endpoint: 'http://127.0.0.1:18080', count: 5, unit: 'assay-trial:harbor-job:codex:write-hello:1' },
      ],
      [
        'harbor-job',
        { endpoint: 'http://127.0.0.1:18080', count: 2, unit: 'assay-trial:harbor-job:codex:write-hello:1' },
      ],
    ]);
  });

  it("uses the provider's endpoint when the system names no baseUrl", async () => {
    const f = setUp({ id: 'claude', harness: 'claude-code', model: 'claude-test', settings: {} });
    f.see(1);
    await f.forwarder.flush();
    expect(f.sent.map(([, r]) => r.endpoint)).toEqual(['https://api.anthropic.com']);
  });

  it('sends nothing for oracle or nop (no endpoint) or without a job to tell', async () => {
    for (const f of [
      setUp({ id: 'oracle', harness: 'oracle', settings: {} }),
      setUp({ id: 'nop', harness: 'nop', settings: {} }),
      setUp(codex, false),
    ]) {
      f.see(3);
      f.forwarder.poll();
      await f.forwarder.flush();
      expect(f.sent).toEqual([]);
    }
  });
});
