// The example YAML script for `assay mock-llm` drives every judge mode (the lead's e2e setup).
import { fileURLToPath } from 'node:url';
import { judgeSetupSchema } from '@assay/core';
import { runMockLlmServer, type MockLlmServer } from '@assay/mock-llm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createJudgeModel, judgeItems } from '../src/index.js';
import { CONTEXT, ITEMS, KEY_ENV, env, evidence } from './fixtures.js';

const scriptPath = fileURLToPath(new URL('../../mock-llm/examples/judge-approves-all.yaml', import.meta.url));
let server: MockLlmServer;
beforeAll(async () => {
  server = await runMockLlmServer({ scriptPath, detach: true, log: () => {} });
});
afterAll(async () => {
  await server.close();
});

it.each(['per-item', 'batched', 'holistic'] as const)('%s: every criterion satisfied', async (mode) => {
  const setup = judgeSetupSchema.parse({
    mode,
    provider: 'anthropic',
    model: 'm',
    baseUrl: server.url,
    apiKeyEnv: KEY_ENV,
  });
  const r = await judgeItems({
    items: ITEMS,
    context: CONTEXT,
    evidence: evidence(),
    setup,
    model: createJudgeModel(setup, { env }),
    evidenceContextVersion: 't',
  });
  expect(r.verdicts.every((v) => v.decision === 'satisfied' && v.source === 'judge')).toBe(true);
  expect(r.stats.malformedReplies).toBe(0);
});
