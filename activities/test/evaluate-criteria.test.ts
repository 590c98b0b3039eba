// Verdict reuse over real documents from the sample benchmark, decided by the real
// evidence package: unchanged artifacts reuse the checkpoint verdict, changed ones are re-checked.
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { judgeSetupSchema, type CriterionVerdict, type SnapshotFile } from '@assay/core';
import { buildSubmissionView, detectFormat, evaluateCheck, type SubmissionView } from '@assay/evidence';
import { evaluateCriteria, reuseKeyOf, storeFile, type EvidenceTools } from '../src/index.js';

const REF = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../datasets/sample/projects/fdd-hengtai/evaluator/reference',
);
const evidence: EvidenceTools = {
  detectFormat,
  buildView: (dir) => buildSubmissionView(dir),
  evaluateCheck: (check, view) => evaluateCheck(check, view as SubmissionView),
};
const judge = judgeSetupSchema.parse({});
const check = { kind: 'cell-value' as const, file: 'dd_model.xlsx', cell: 'Capex!B2', equals: 4249.2, tolerance: 0.05 };

function submission(subtask: string): { dir: string; files: SnapshotFile[] } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-sub-'));
  const store = mkdtempSync(path.join(os.tmpdir(), 'assay-cas-'));
  mkdirSync(dir, { recursive: true });
  copyFileSync(path.join(REF, subtask, 'dd_model.xlsx'), path.join(dir, 'dd_model.xlsx'));
  return { dir, files: [{ path: 'dd_model.xlsx', ...storeFile(store, path.join(dir, 'dd_model.xlsx')) }] };
}

describe('evaluateCriteria', () => {
  it('reuses a checkpoint verdict only while the artifact is unchanged', async () => {
    const t03 = submission('t03-apply-correction');
    const [first] = await evaluateCriteria({
      criteria: [
        {
          criterionId: 'capex-2026-corrected',
          text: 'Capex!B2 is 4,249.2',
          weight: 8,
          fatal: false,
          dimension: 'correctness',
          target: null,
          check,
        },
      ],
      outputsDir: t03.dir,
      outputs: t03.files,
      evidence,
      judge,
      prior: new Map(),
      sources: new Map(),
    });
    expect(first?.decision).toBe('satisfied');
    expect(first?.source).toBe('check');
    const prior = new Map<string, CriterionVerdict>([
      ['t03/capex-2026-corrected', { ...first!, effective: 1, blockedBy: [] }],
    ]);
    const sources = new Map([['t03/capex-2026-corrected', { text: 'Capex!B2 is 4,249.2', check }]]);
    const final = {
      criterionId: 'fa',
      text: 'final',
      weight: 8,
      fatal: false,
      dimension: 'correctness' as const,
      target: 'artifact-quality' as const,
      reuses: 't03/capex-2026-corrected',
    };

    const same = await evaluateCriteria({
      criteria: [final],
      outputsDir: t03.dir,
      outputs: t03.files,
      evidence,
      judge,
      prior,
      sources,
    });
    expect(same[0]).toMatchObject({ decision: 'satisfied', source: 'reused', reusedFrom: 't03/capex-2026-corrected' });

    // t04 revised the workbook (new sheet): same criterion, new artifact, so it is checked again.
    const t04 = submission('t04-ebitda-adjustments');
    expect(t04.files[0]?.sha256).not.toBe(t03.files[0]?.sha256);
    const changed = await evaluateCriteria({
      criteria: [final],
      outputsDir: t04.dir,
      outputs: t04.files,
      evidence,
      judge,
      prior,
      sources,
    });
    expect(changed[0]).toMatchObject({ decision: 'satisfied', source: 'check', reusedFrom: null });
  });

  it('keys reuse on the criterion, the referenced artifacts and the judge setup', () => {
    const files = [
      { path: 'a.md', sha256: 'x', size: 1 },
      { path: 'b.md', sha256: 'y', size: 1 },
    ];
    const c = { text: 'A says hi', check: { kind: 'text-contains' as const, file: 'a.md', text: 'hi' } };
    const key = reuseKeyOf(c, files, judge);
    expect(reuseKeyOf(c, [files[0]!, { ...files[1]!, sha256: 'z' }], judge)).toBe(key); // b.md is not referenced
    expect(reuseKeyOf(c, [{ ...files[0]!, sha256: 'w' }, files[1]!], judge)).not.toBe(key);
    expect(reuseKeyOf({ ...c, text: 'A says hello' }, files, judge)).not.toBe(key);
    const judged = { text: 'Reads well' };
    expect(reuseKeyOf(judged, files, judge)).not.toBe(reuseKeyOf(judged, files, { ...judge, model: 'other' }));
  });

  it('leaves criteria without a check explicitly unjudged in checks-only mode', async () => {
    const t03 = submission('t03-apply-correction');
    const [v] = await evaluateCriteria({
      criteria: [
        {
          criterionId: 'tone',
          text: 'Reads professionally',
          weight: 2,
          fatal: false,
          dimension: 'professionalism',
          target: null,
        },
      ],
      outputsDir: t03.dir,
      outputs: t03.files,
      evidence,
      judge,
      prior: new Map(),
      sources: new Map(),
    });
    expect(v).toMatchObject({ decision: 'unjudged', source: 'none' });
  });
});
