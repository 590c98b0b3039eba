// A record's agent provenance from its runs: the image, the models the proxy saw answer, and the provider's
// response ids it counted, over the runs in order; nothing claimed for runs stored before a field was counted.
import { describe, expect, it } from 'vitest';
import { provenanceSchema } from '@assay/core';
import type { ProxyUsage } from '@assay/harnesses';
import { agentProvenanceOf } from '../src/agent-provenance.js';
import type { AgentRun } from '../src/run-harness.js';

const base: AgentRun = {
  exitCode: 0,
  timedOut: false,
  reason: null,
  startedAt: '2026-12-01T00:00:00Z',
  endedAt: '2026-12-01T00:00:01Z',
  durationSeconds: 1,
  containerAttempts: 1,
  usage: null,
};
const proxied = (responseIds: ProxyUsage['responseIds'], models = ['m-1']): AgentRun => ({
  ...base,
  proxyUsage: {
    inputTokens: 1,
    outputTokens: 1,
    cachedInputTokens: 0,
    requests: 1,
    failed: 0,
    throttled: 0,
    lastThrottledAt: null,
    models,
    ...(responseIds ? { responseIds } : {}),
  },
});
// As stored before the proxy counted response ids (the field absent from agent-result.json).
const older = proxied(undefined);

describe("a record's agent provenance", () => {
  const image = { id: `sha256:${'a'.repeat(64)}`, tag: 'assay/scripted-agent:abc' };

  it('names the image and, only when the proxy served the runs, every model they answered with', () => {
    expect(agentProvenanceOf([{ ...base, image }])).toEqual({ agentImage: image.id, agentImageTag: image.tag });
    const steps = [
      { ...proxied(undefined, ['m-2025', 'm-mini']), image },
      { ...proxied(undefined, ['m-2025']), image: { ...image, id: `sha256:${'b'.repeat(64)}` } },
    ];
    expect(agentProvenanceOf(steps)).toEqual({
      agentImage: image.id,
      agentImageTag: image.tag,
      models: ['m-2025', 'm-mini'],
    });
    // A proxied run that got no answer named none; a result from before either field tells nothing.
    expect(agentProvenanceOf([proxied(undefined, [])])).toEqual({ models: [] });
    const noModels = proxied(undefined, []);
    const before = { ...noModels, proxyUsage: { ...noModels.proxyUsage, models: undefined } } as unknown as AgentRun;
    expect(agentProvenanceOf([before, base])).toEqual({});
  });
});

describe("a record's response ids", () => {
  it('sums the counts over the runs, with the first run’s first id and the last run’s last', () => {
    const steps = [
      proxied({ count: 0, first: null, last: null }),
      proxied({ count: 2, first: 'msg_step2a', last: 'msg_step2b' }),
      older,
      proxied({ count: 3, first: 'msg_step4a', last: 'msg_step4c' }),
      proxied({ count: 0, first: null, last: null }),
    ];
    const provenance = agentProvenanceOf(steps);
    expect(provenance).toMatchInlineSnapshot(`
      {
        "models": [
          "m-1",
        ],
        "responses": {
          "count": 5,
          "first": "msg_step2a",
          "last": "msg_step4c",
        },
      }
    `);
    expect(provenanceSchema.shape.responses.parse(provenance.responses)).toEqual(provenance.responses);
  });

  it('counts none for proxied runs that got no answer', () => {
    expect(agentProvenanceOf([proxied({ count: 0, first: null, last: null })]).responses).toEqual({
      count: 0,
      first: null,
      last: null,
    });
  });

  it('claims nothing when no run tells: older results, scripted agents, a malformed field', () => {
    expect(agentProvenanceOf([older])).toEqual({ models: ['m-1'] });
    expect(agentProvenanceOf([base, older])).not.toHaveProperty('responses');
    expect(agentProvenanceOf([])).toEqual({});
    const broken = {
      ...older,
      proxyUsage: { ...older.proxyUsage, responseIds: { count: 'x' } },
    } as unknown as AgentRun;
    expect(agentProvenanceOf([broken])).not.toHaveProperty('responses');
    // An older run among counted ones adds nothing and hides nothing.
    expect(agentProvenanceOf([older, proxied({ count: 1, first: 'resp_a', last: 'resp_a' }), older]).responses).toEqual(
      { count: 1, first: 'resp_a', last: 'resp_a' },
    );
  });
});
