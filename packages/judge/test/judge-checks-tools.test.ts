// Deterministic checks run first and are recorded as such; the judge's evidence tools reach
// the model in each provider's wire format.
import { judgeSetupSchema, type Check, type CheckOutcome, type JudgeSetup } from '@assay/core';
import { startMockLlm, type MockLlmServer, type MockRequest } from '@assay/mock-llm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createJudgeModel, createMemoryEvidence, judgeItems, type JudgeItem } from '../src/index.js';
import {
  CONTEXT,
  ITEMS,
  KEY_ENV,
  MEMO,
  MODEL_CELLS,
  env,
  evidence,
  judgeScript,
  submissionFiles,
  truth,
} from './fixtures.js';

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

/** A check evaluator over the fixture's text and cells, as packages/evidence would provide. */
function runCheck(check: Check): CheckOutcome {
  if (check.kind === 'text-contains') {
    const found = MEMO.toLowerCase().includes(check.text.toLowerCase());
    return {
      status: found ? 'satisfied' : 'not-satisfied',
      reason: `"${check.text}" ${found ? 'found' : 'not found'} in ${check.file}`,
      evidence: [],
    };
  }
  if (check.kind === 'cell-value') {
    const v = MODEL_CELLS[check.cell];
    const ok =
      typeof v === 'number' &&
      check.equals !== undefined &&
      Math.abs(v - Number(check.equals)) <= (check.tolerance ?? 0);
    return {
      status: ok ? 'satisfied' : 'not-satisfied',
      reason: `${check.cell} = ${String(v)}`,
      evidence: [`${check.file} ${check.cell}`],
    };
  }
  return { status: 'cannot-evaluate', reason: `${check.kind} is not supported here`, evidence: [] };
}

const withChecks: JudgeItem[] = ITEMS.map((i) => {
  if (i.id === 'c-01')
    return { ...i, check: { kind: 'text-contains', file: 'q3-review.md', text: 'Revenue grew 12.4%' } };
  if (i.id === 'c-17') return { ...i, check: { kind: 'text-contains', file: 'q3-review.md', text: 'debt covenant' } };
  if (i.id === 'c-02')
    return {
      ...i,
      check: { kind: 'cell-value', file: 'model.xlsx', cell: 'Summary!B4', equals: 0.18, tolerance: 0.005 },
    };
  if (i.id === 'c-05') return { ...i, check: { kind: 'formula-cached', file: 'model.xlsx', range: 'Summary!B2:B4' } };
  return i;
});

describe('deterministic checks', () => {
  it('decide their items first, which never reach the judge; cannot-evaluate falls through', async () => {
    const s = setup();
    const r = await judgeItems({
      items: withChecks,
      context: CONTEXT,
      evidence: evidence(),
      setup: s,
      model: createJudgeModel(s, { env }),
      runCheck,
      evidenceContextVersion: 't',
    });
    const by = new Map(r.verdicts.map((v) => [v.itemId, v]));
    expect(by.get('c-01')).toMatchObject({
      source: 'check',
      decision: 'satisfied',
      check: { kind: 'text-contains', status: 'satisfied' },
    });
    expect(by.get('c-17')).toMatchObject({ source: 'check', decision: 'not-satisfied' });
    expect(by.get('c-02')).toMatchObject({
      source: 'check',
      decision: 'satisfied',
      evidence: ['model.xlsx Summary!B4'],
    });
    expect(by.get('c-05')).toMatchObject({
      source: 'judge',
      decision: truth().get('c-05'),
      check: { status: 'cannot-evaluate' },
    });
    const prompts = server
      .modelCalls()
      .map((c) => JSON.stringify(c.body))
      .join('\n');
    for (const id of ['c-01', 'c-17', 'c-02']) expect(prompts).not.toContain(`ITEM ${id}:`);
    expect(prompts).toContain('ITEM c-05:');
    expect(r.stats).toMatchObject({ byCheck: 3, judged: 21, unjudged: 0 });
    // 21 judge items: batches of 8, 8, 5.
    expect(r.sessions.map((x) => x.itemIds.length)).toEqual([8, 8, 5]);
  });

  it('checks-only mode: no model, no calls, the rest explicitly unjudged', async () => {
    const r = await judgeItems({
      items: withChecks,
      context: CONTEXT,
      evidence: evidence(),
      setup: judgeSetupSchema.parse({}),
      runCheck,
      evidenceContextVersion: 't',
    });
    expect(server.requests).toHaveLength(0);
    expect(r.identity).toBeNull();
    expect(r.verdicts.filter((v) => v.source === 'check')).toHaveLength(3);
    const rest = r.verdicts.filter((v) => v.source !== 'check');
    expect(rest.every((v) => v.decision === 'unjudged' && v.unjudgedReason === 'checks-only')).toBe(true);
    expect(r.verdicts.find((v) => v.itemId === 'c-05')?.reason).toMatch(/cannot evaluate/);
  });

  it('a throwing check is treated as cannot-evaluate, not as a failure', async () => {
    const r = await judgeItems({
      items: [withChecks[0] as JudgeItem],
      context: CONTEXT,
      evidence: evidence(),
      setup: judgeSetupSchema.parse({}),
      runCheck: () => {
        throw new Error('workbook is encrypted');
      },
      evidenceContextVersion: 't',
    });
    expect(r.verdicts[0]).toMatchObject({
      decision: 'unjudged',
      check: { status: 'cannot-evaluate', reason: 'workbook is encrypted' },
    });
  });
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
