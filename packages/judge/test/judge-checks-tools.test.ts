// The judge's evidence tools reach the model in each provider's wire format. (Deterministic
// checks are evaluation's business: activities/test/evaluate-items.test.ts.)
import { judgeSetupSchema, type JudgeSetup } from '@assay/core';
import { startMockLlm, type MockLlmServer, type MockRequest } from '@assay/mock-llm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createJudgeModel, createMemoryEvidence, judgeItems, type JudgeItem } from '../src/index.js';
import { CONTEXT, ITEMS, KEY_ENV, env, judgeScript, submissionFiles } from './fixtures.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let server: MockLlmServer;
beforeAll(async () => {
  server = await startMockLlm({ script: judgeScript() });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.clearRecords();
  server.setScript(judgeScript());
});

const setup = (over: Partial<JudgeSetup> = {}) =>
  judgeSetupSchema.parse({
    mode: 'batched',
    provider: 'openai',
    model: 'judge-model',
    baseUrl: `${server.url}/v1`,
    apiKeyEnv: KEY_ENV,
    ...over,
  });

describe('evidence tools on the wire', () => {
  const files = [...submissionFiles(), { path: 'deck.pdf', text: 'Slide deck', format: 'pdf', pages: { 1: PNG } }];
  // Turn 1 calls every evidence tool (some with bad arguments); turn 2 submits.
  const toolUser = (req: MockRequest) =>
    req.turn === 1
      ? {
          toolCalls: [
            { name: 'list_files', arguments: {} },
            { name: 'read_file', arguments: { path: 'q3-review.md', offset: 0, max_chars: 60 } },
            { name: 'read_cells', arguments: { file: 'model.xlsx', range: 'Summary!A2:B3' } },
            { name: 'view_page', arguments: { file: 'deck.pdf', page: 1 } },
            { name: 'read_file', arguments: { path: 'missing.docx' } },
            { name: 'search_text', arguments: '{"query": ' },
            { name: 'delete_file', arguments: { path: 'q3-review.md' } },
          ],
        }
      : {
          toolCalls: [
            {
              name: 'submit_verdict',
              arguments: { decision: 'satisfied', justification: 'Seen on page 1.', evidence: ['deck.pdf page 1'] },
            },
          ],
        };

  it.each(['openai', 'anthropic'] as const)(
    '%s: results, errors and the page image reach the model',
    async (provider) => {
      server.setScript({ rules: [{ match: { any: /ITEM c-01:/ }, reply: toolUser }] });
      const s = setup({ mode: 'per-item', provider, baseUrl: provider === 'openai' ? `${server.url}/v1` : server.url });
      const r = await judgeItems({
        items: [ITEMS[0] as JudgeItem],
        context: CONTEXT,
        evidence: createMemoryEvidence(files),
        setup: s,
        model: createJudgeModel(s, { env }),
        evidenceContextVersion: 't',
      });
      expect(r.verdicts[0]).toMatchObject({ decision: 'satisfied', evidence: ['deck.pdf page 1'] });
      const second = JSON.stringify(server.modelCalls()[1]?.body);
      expect(second).toContain('q3-review.md\\tmd');
      expect(second).toContain('[line 1] # Northwind Clinics');
      expect(second).toContain('call read_file with offset=60 for more');
      expect(second).toContain('Summary!A2 = \\"Revenue\\"');
      expect(second).toContain('Summary!B3 = 872420');
      expect(second).toContain('no file \\"missing.docx\\" in the submission');
      expect(second).toContain('invalid arguments for search_text');
      expect(second).toContain('unknown tool \\"delete_file\\"');
      expect(second).toContain(PNG.toString('base64'));
      if (provider === 'openai') expect(second).toContain('data:image/png;base64,');
      else expect(second).toMatch(/"type":"image","source":\{"type":"base64","media_type":"image\/png"/);
    },
  );
});
