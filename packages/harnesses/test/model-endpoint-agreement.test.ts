// The job computes a system's model endpoint in core (for its back-pressure lanes) from the same
// defaults the adapters use, so the endpoint an agent reports is the one the job limits.
import { describe, expect, it } from 'vitest';
import { HARNESS_MODEL_API, MODEL_HARNESSES, modelEndpoint } from '@assay/core';
import { ADAPTERS, DEFAULT_UPSTREAM, modelRoute } from '../src/index.js';

describe('model endpoint agreement', () => {
  it('knows each model CLI by the wire protocol its adapter speaks', () => {
    for (const h of MODEL_HARNESSES) expect([h, HARNESS_MODEL_API[h]]).toEqual([h, ADAPTERS[h].api]);
  });

  it('is the origin of the upstream the proxy route forwards to', () => {
    for (const h of MODEL_HARNESSES)
      for (const settings of [{}, { baseUrl: 'http://127.0.0.1:18080/v1' }, { api: 'anthropic' }]) {
        const system = { id: 's', harness: h, model: 'm', settings };
        const api = (settings as { api?: string }).api ?? ADAPTERS[h].api;
        const route = modelRoute(system, api as keyof typeof DEFAULT_UPSTREAM, {});
        expect(modelEndpoint(system)).toBe(new URL(route.upstream).origin);
      }
  });
});
