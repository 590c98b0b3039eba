// evaluateItems, the I/O around core's decideItems: reuse over real documents of the sample
// benchmark decided by the real @assay/evidence checks, and the real agent judge of
// @assay/judge over the scripted model server for whatever the checks leave open.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  decisionMessages,
  judgeSetupSchema,
  type Check,
  type CheckOutcome,
  type ItemDecision,
  type Judge,
  type PriorVerdict,
} from '@assay/core';
import { buildSubmissionView, detectFormat, evaluateCheck, type SubmissionView } from '@assay/evidence';
import { createJudge, createJudgeModel, createMemoryEvidence, type JudgeRunResult } from '@assay/judge';
import { startMockLlm, type MockLlmServer } from '@assay/mock-llm';
import { evaluateItems, reuseKeyOf, type EvaluationItem, type EvaluationTools } from '../src/index.js';
import type { EvidenceTools } from '../src/evaluate-deliverables.js';
import {
  CONTEXT,
  ITEMS,
  KEY_ENV,
  MEMO,
  MODEL_CELLS,
  env,
  judgeScript,
  submissionFiles,
  truth,
} from '../../packages/judge/test/fixtures.js';

const REF = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../datasets/sample/projects/fdd-hengtai/evaluator/reference',
);
const checksOnly = judgeSetupSchema.parse({});
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const context = { id: 'fdd-hengtai/final', request: 'Deliver the due-diligence package.' };

/** The real evidence package, counting the checks it evaluates. */
function realEvidence(): EvidenceTools & { checksRun: number } {
  const tools = {
    checksRun: 0,
    detectFormat,
    buildView: (dir: string) => buildSubmissionView(dir),
    evaluateCheck: (check: Check, view: unknown) => {
      tools.checksRun += 1;
      return evaluateCheck(check, view as SubmissionView);
    },
  };
  return tools;
}

/** A submission folder holding one subtask's reference workbook. */
function submission(subtask: string): { dir: string; files: { path: string; sha256: string }[] } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-sub-'));
  copyFileSync(path.join(REF, subtask, 'dd_model.xlsx'), path.join(dir, 'dd_model.xlsx'));
  return { dir, files: [{ path: 'dd_model.xlsx', sha256: sha256(path.join(dir, 'dd_model.xlsx')) }] };
}

describe('evaluateItems over real documents', () => {
  const check: Check = { kind: 'cell-value', file: 'dd_model.xlsx', cell: 'Capex!B2', equals: 4249.2, tolerance: 0.05 };
  const text = 'Capex!B2 is 4,249.2';
  const checkpointItem: EvaluationItem = { id: 'capex-2026-corrected', text, check, group: 'correctness' };
  // A final artifact-quality criterion re-applying the checkpoint criterion (text and check).
  const finalItem: EvaluationItem = {
    id: 'fa',
    text,
    check,
    group: 'artifact-quality',
    reuses: 't03/capex-2026-corrected',
  };

  it('reuses a checkpoint verdict only while the artifact is unchanged', async () => {
    const t03 = submission('t03-apply-correction');
    const evidence = realEvidence();
    const tools: EvaluationTools = { evidence, judge: null };
    const base = { submissionDir: t03.dir, files: t03.files, context, judgeSetup: checksOnly };
    const [first] = await evaluateItems(tools, { ...base, items: [checkpointItem] });
    expect(first).toMatchObject({ decision: 'satisfied', source: 'check', reusedFrom: null });
    expect(evidence.checksRun).toBe(1);
    const prior = new Map<string, PriorVerdict>([['t03/capex-2026-corrected', first!]]);

    const [same] = await evaluateItems(tools, { ...base, items: [finalItem], prior });
    expect(same).toMatchObject({
      decision: 'satisfied',
      source: 'reused',
      reusedFrom: 't03/capex-2026-corrected',
      reuseKey: first?.reuseKey,
    });
    expect(same?.reason).toBe(decisionMessages.reused('t03/capex-2026-corrected', first?.reason ?? ''));
    // A reused item's check is not run again.
    expect(evidence.checksRun).toBe(1);

    // t04 revised the workbook (new sheet): same criterion, new artifact, so it is checked again.
    const t04 = submission('t04-ebitda-adjustments');
    expect(t04.files[0]?.sha256).not.toBe(t03.files[0]?.sha256);
    const [changed] = await evaluateItems(tools, {
      ...base,
      submissionDir: t04.dir,
      files: t04.files,
      items: [finalItem],
      prior,
    });
    expect(changed).toMatchObject({ decision: 'satisfied', source: 'check', reusedFrom: null });
    expect(changed?.reuseKey).not.toBe(first?.reuseKey);
    expect(evidence.checksRun).toBe(2);
  });

  it('re-checks rather than reuse an earlier verdict that was not decided', async () => {
    const t03 = submission('t03-apply-correction');
    const tools: EvaluationTools = { evidence: realEvidence(), judge: null };
    const input = { submissionDir: t03.dir, files: t03.files, context, judgeSetup: checksOnly };
    const reuseKey = reuseKeyOf(finalItem, t03.files, checksOnly);
    const prior = new Map<string, PriorVerdict>([
      ['t03/capex-2026-corrected', { decision: 'unjudged', reason: 'timed out', reuseKey }],
    ]);
    const [d] = await evaluateItems(tools, { ...input, items: [finalItem], prior });
    expect(d).toMatchObject({ decision: 'satisfied', source: 'check', reuseKey });
  });

  it('a check that finds another value decides not-satisfied, with the real reason', async () => {
    // t01's workbook predates the correction: Capex!B2 still holds the superseded figure.
    const t01 = submission('t01-baseline-model');
    const [d] = await evaluateItems(
      { evidence: realEvidence(), judge: null },
      { items: [checkpointItem], submissionDir: t01.dir, files: t01.files, context, judgeSetup: checksOnly },
    );
    expect(d).toMatchObject({ decision: 'not-satisfied', source: 'check' });
    expect(d?.reason).toMatch(/Capex!B2/);
  });

  it('leaves items without a check explicitly unjudged in checks-only mode', async () => {
    const t03 = submission('t03-apply-correction');
    const [d] = await evaluateItems(
      { evidence: realEvidence(), judge: null },
      {
        items: [{ id: 'tone', text: 'Reads professionally', group: 'professionalism' }],
        submissionDir: t03.dir,
        files: t03.files,
        context,
        judgeSetup: checksOnly,
      },
    );
    expect(d).toMatchObject({ decision: 'unjudged', source: 'none', reason: decisionMessages.checksOnly });
  });

  it('keys reuse on the criterion, the referenced artifacts and the judge setup', () => {
    const files = [
      { path: 'a.md', sha256: 'x' },
      { path: 'b.md', sha256: 'y' },
    ];
    const c = { text: 'A says hi', check: { kind: 'text-contains' as const, file: 'a.md', text: 'hi' } };
    const key = reuseKeyOf(c, files, checksOnly);
    expect(reuseKeyOf(c, [files[0]!, { ...files[1]!, sha256: 'z' }], checksOnly)).toBe(key); // b.md is not referenced
    expect(reuseKeyOf(c, [{ ...files[0]!, sha256: 'w' }, files[1]!], checksOnly)).not.toBe(key);
    expect(reuseKeyOf(c, [files[1]!], checksOnly)).not.toBe(key); // a.md gone
    expect(reuseKeyOf({ ...c, text: 'A says hello' }, files, checksOnly)).not.toBe(key);
    // A check decides the same under any judge; a judged criterion's key follows the judge setup.
    expect(reuseKeyOf(c, files, { ...checksOnly, model: 'other' })).toBe(key);
    const judged = { text: 'Reads well' };
    expect(reuseKeyOf(judged, files, checksOnly)).not.toBe(
      reuseKeyOf(judged, files, { ...checksOnly, model: 'other' }),
    );
    // Without a check every file is looked at.
    expect(reuseKeyOf(judged, [files[0]!, { ...files[1]!, sha256: 'z' }], checksOnly)).not.toBe(
      reuseKeyOf(judged, files, checksOnly),
    );
  });
});

describe('evaluateItems with the agent judge', () => {
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

  /** Decides text and cell checks over the fixture's memo and cells, as packages/evidence would. */
  function fixtureEvidence(runCheck?: (check: Check) => CheckOutcome): EvidenceTools & { checked: string[] } {
    const tools = {
      checked: [] as string[],
      detectFormat: () => Promise.resolve(null),
      buildView: () => Promise.resolve(null),
      evaluateCheck: (check: Check): CheckOutcome => {
        tools.checked.push(check.kind);
        if (runCheck) return runCheck(check);
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
      },
    };
    return tools;
  }

  const items: EvaluationItem[] = ITEMS.map((i) => {
    const base = { id: i.id, text: i.text, group: i.group ?? 'items' };
    if (i.id === 'c-01')
      return { ...base, check: { kind: 'text-contains', file: 'q3-review.md', text: 'Revenue grew 12.4%' } };
    if (i.id === 'c-17')
      return { ...base, check: { kind: 'text-contains', file: 'q3-review.md', text: 'debt covenant' } };
    if (i.id === 'c-02')
      return {
        ...base,
        check: { kind: 'cell-value', file: 'model.xlsx', cell: 'Summary!B4', equals: 0.18, tolerance: 0.005 },
      };
    if (i.id === 'c-05')
      return { ...base, check: { kind: 'formula-cached', file: 'model.xlsx', range: 'Summary!B2:B4' } };
    return base;
  });
  const files = submissionFiles().map((f) => ({
    path: f.path,
    sha256: createHash('sha256').update(f.text).digest('hex'),
  }));
  const judgeContext = { id: CONTEXT.taskId, title: CONTEXT.title, request: CONTEXT.request };

  function agentJudge(runs: JudgeRunResult[]): Judge {
    const setup = judgeSetupSchema.parse({
      mode: 'batched',
      provider: 'openai',
      model: 'judge-model',
      baseUrl: `${server.url}/v1`,
      apiKeyEnv: KEY_ENV,
    });
    return createJudge({
      setup,
      model: createJudgeModel(setup, { env }),
      openEvidence: () => Promise.resolve(createMemoryEvidence(submissionFiles())),
      evidenceContextVersion: 't',
      onRun: (run) => runs.push(run),
    });
  }
  const evaluate = (tools: EvaluationTools, over: Partial<Parameters<typeof evaluateItems>[1]> = {}) =>
    evaluateItems(tools, {
      items,
      submissionDir: '/nonexistent/memory-evidence',
      files,
      context: judgeContext,
      judgeSetup: checksOnly,
      ...over,
    });
  const byId = (ds: ItemDecision[]) => new Map(ds.map((d) => [d.id, d]));

  it('checks decide first and never reach the judge; cannot-evaluate falls through to it', async () => {
    const runs: JudgeRunResult[] = [];
    const evidence = fixtureEvidence();
    const out = await evaluate({ evidence, judge: agentJudge(runs) });
    expect(out.map((d) => d.id)).toEqual(ITEMS.map((i) => i.id));
    expect(evidence.checked).toEqual(['text-contains', 'cell-value', 'formula-cached', 'text-contains']);
    const by = byId(out);
    expect(by.get('c-01')).toMatchObject({ source: 'check', decision: 'satisfied' });
    expect(by.get('c-17')).toMatchObject({ source: 'check', decision: 'not-satisfied' });
    expect(by.get('c-02')).toMatchObject({
      source: 'check',
      decision: 'satisfied',
      evidence: ['model.xlsx Summary!B4'],
    });
    expect(by.get('c-05')).toMatchObject({
      source: 'judge',
      decision: truth().get('c-05'),
      judge: { check: { status: 'cannot-evaluate', reason: 'formula-cached is not supported here' }, mode: 'batched' },
    });
    // Every item the checks left open was judged, and judged right.
    const t = truth();
    const judged = out.filter((d) => d.source === 'judge');
    expect(judged).toHaveLength(21);
    expect(judged.every((d) => d.decision === t.get(d.id) && d.reason.length > 0)).toBe(true);

    const prompts = server
      .modelCalls()
      .map((c) => JSON.stringify(c.body))
      .join('\n');
    for (const id of ['c-01', 'c-17', 'c-02']) expect(prompts).not.toContain(`ITEM ${id}:`);
    expect(prompts).toContain('ITEM c-05:');
    // One judge call for all 21 open items, so batched mode batches them: 8, 8, 5.
    expect(runs).toHaveLength(1);
    expect(runs[0]?.sessions.map((s) => s.itemIds.length)).toEqual([8, 8, 5]);
    expect(runs[0]?.stats).toMatchObject({ items: 21, judged: 21, unjudged: 0 });
  });

  it('does not call the judge when checks and reuse leave nothing open', async () => {
    const runs: JudgeRunResult[] = [];
    const checked = items.filter((i) => i.check && i.id !== 'c-05');
    const out = await evaluate({ evidence: fixtureEvidence(), judge: agentJudge(runs) }, { items: checked });
    expect(out.map((d) => d.source)).toEqual(['check', 'check', 'check']);
    expect(runs).toHaveLength(0);
    expect(server.requests).toHaveLength(0);
  });

  it('checks-only: no model, no calls, the rest explicitly unjudged with the reason', async () => {
    const out = await evaluate({ evidence: fixtureEvidence(), judge: null });
    expect(server.requests).toHaveLength(0);
    expect(out.filter((d) => d.source === 'check' && d.decision !== 'unjudged').map((d) => d.id)).toEqual([
      'c-01',
      'c-02',
      'c-17',
    ]);
    const rest = out.filter((d) => !['c-01', 'c-02', 'c-17'].includes(d.id));
    expect(rest.every((d) => d.decision === 'unjudged')).toBe(true);
    expect(new Set(rest.map((d) => d.reason))).toEqual(
      new Set([decisionMessages.checksOnly, 'check could not evaluate: formula-cached is not supported here']),
    );
    expect(byId(out).get('c-05')?.reason).toBe('check could not evaluate: formula-cached is not supported here');
  });

  it('a throwing check is cannot-evaluate: unjudged with its reason without a judge, judged with one', async () => {
    const throwing = fixtureEvidence(() => {
      throw new Error('workbook is encrypted');
    });
    const one = { items: items.filter((i) => i.id === 'c-02') };
    const [alone] = await evaluate({ evidence: throwing, judge: null }, one);
    expect(alone).toMatchObject({
      decision: 'unjudged',
      reason: 'check could not evaluate: workbook is encrypted',
    });

    const runs: JudgeRunResult[] = [];
    const [judged] = await evaluate({ evidence: throwing, judge: agentJudge(runs) }, one);
    expect(judged).toMatchObject({
      source: 'judge',
      decision: truth().get('c-02'),
      judge: { check: { status: 'cannot-evaluate', reason: 'workbook is encrypted' } },
    });
    expect(runs[0]?.sessions.map((s) => s.itemIds)).toEqual([['c-02']]);
  });
});
