// Checkpoint and final-package evaluation of the sample project over its real reference
// deliverables (and a flawed run), decided by the real @assay/evidence checks in checks-only
// mode, from content-addressed snapshots as the project activities keep them.
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBenchmark, type LoadedProject } from '@assay/benchmark';
import { checkpointRecordSchema, judgeSetupSchema, type CheckpointRecord } from '@assay/core';
import { buildSubmissionView, detectFormat, evaluateCheck, type SubmissionView } from '@assay/evidence';
import { createFsResultsStore, snapshotDirectory } from '@assay/results';
import { assembleProjectRecord, rejudgeProject, type EvaluationDeps, type FinalEvaluation } from '../src/index.js';
import { allSubtasks, evaluateCheckpointCriteria, evaluateFinalCriteria } from '../src/project-evaluation.js';

const SAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../datasets/sample');
const project: LoadedProject = (() => {
  const p = loadBenchmark(SAMPLE).projects.find((x) => x.spec.id === 'fdd-hengtai');
  if (!p) throw new Error('the sample benchmark has no project fdd-hengtai');
  return p;
})();
const tmp = (prefix: string) => mkdtempSync(path.join(os.tmpdir(), prefix));

function deps(): EvaluationDeps {
  return {
    evidence: {
      detectFormat,
      buildView: (dir) => buildSubmissionView(dir),
      evaluateCheck: (check, view) => evaluateCheck(check, view as SubmissionView),
    },
    judge: null,
    judgeSetup: judgeSetupSchema.parse({}),
    store: createFsResultsStore(tmp('assay-results-')),
  };
}

/** Run every subtask on the deliverables of `folderOf(subtask)` and record its checkpoint, as the activities do. */
async function runCheckpoints(d: EvaluationDeps, folderOf: (subtask: string) => string): Promise<CheckpointRecord[]> {
  const out: CheckpointRecord[] = [];
  for (const stage of project.spec.stages) {
    for (const sub of stage.subtasks) {
      const workspace = tmp('assay-ws-');
      cpSync(folderOf(sub.id), path.join(workspace, 'outputs'), { recursive: true });
      const snapshot = await snapshotDirectory(d.store, workspace);
      const e = await evaluateCheckpointCriteria(d, {
        project,
        subtaskId: sub.id,
        snapshotFiles: snapshot.files,
        workDir: tmp('assay-eval-'),
      });
      out.push(
        checkpointRecordSchema.parse({
          subtaskId: sub.id,
          stageId: stage.id,
          agent: {
            status: 'completed',
            exitCode: 0,
            timedOut: false,
            reason: null,
            startedAt: '2026-01-01T00:00:00Z',
            endedAt: '2026-01-01T00:01:00Z',
            durationSeconds: 60,
            containerAttempts: 1,
          },
          usage: { inputTokens: 1000, outputTokens: 100, cachedInputTokens: 400 },
          snapshot,
          verdicts: e.verdicts,
          score: e.score,
          gateTriggered: e.gateTriggered,
          unjudged: e.unjudged,
        }),
      );
    }
  }
  return out;
}

const reference = (subtask: string) => path.join(project.evaluator.referenceDir, subtask);
const meta = { jobId: 'sample', benchmark: { id: 'sample', version: '1' }, trial: 1 };

// The evaluations themselves run in beforeAll (real documents take seconds each); the tests assert.
describe('project evaluation of the reference run (checks-only)', () => {
  const d = deps();
  let checkpoints: CheckpointRecord[] = [];
  let final: FinalEvaluation;
  beforeAll(async () => {
    checkpoints = await runCheckpoints(d, reference);
    final = await evaluateFinalCriteria(d, { project, checkpoints, workDir: tmp('assay-final-') });
  });

  it('decides each checkpoint by its own criteria: checks decide, the rest stays unjudged', () => {
    expect(checkpoints.map((c) => c.subtaskId)).toEqual(allSubtasks(project));
    for (const cp of checkpoints) {
      const ids = (project.evaluator.criteria.checkpoints[cp.subtaskId] ?? []).filter((c) => !c.check).map((c) => c.id);
      expect(cp.unjudged).toEqual(ids);
      expect(cp.verdicts.filter((v) => v.decision !== 'unjudged').every((v) => v.source === 'check')).toBe(true);
      // Criteria without a check are pending, so the checkpoint score is too.
      expect(cp.score).toBe(ids.length > 0 ? null : 100);
    }
    // The reference is right: every positive criterion satisfied, no failure condition met.
    const unfavourable = checkpoints
      .flatMap((c) => c.verdicts)
      .filter((v) => v.decision !== 'unjudged' && (v.decision === 'satisfied') !== (v.weight > 0 && !v.fatal));
    expect(unfavourable).toEqual([]);
  });

  it('the final package reuses verdicts whose artifact is unchanged and re-checks the rest', () => {
    const artifact = final.verdicts.filter((v) => v.target === 'artifact-quality');
    // t04 and t05 left the databook and the deck as t06 delivers them; t01-t03's versions were revised since.
    expect(
      artifact.map(
        (v) => `${v.criterionId}: ${v.decision} by ${v.source}${v.reusedFrom ? ` from ${v.reusedFrom}` : ''}`,
      ),
    ).toMatchInlineSnapshot(`
      [
        "fa-capex-corrected: satisfied by check",
        "fa-adjusted-ebitda: satisfied by reused from t04-ebitda-adjustments/adjusted-ebitda",
        "fa-deck-funding: satisfied by reused from t05-management-deck/deck-funding-current",
        "fa-memo-capex-section: satisfied by check",
        "fa-model-cached: satisfied by check",
        "fatal-stale-capex: not-satisfied by check",
      ]
    `);
    expect(final.packageFiles.map((f) => f.path).sort()).toEqual(['dd_memo.docx', 'dd_model.xlsx', 'mgmt_deck.pptx']);
    expect(final).toMatchObject({ gateTriggered: false, gates: [], unjudged: ['pa-handover-quality'], score: null });
  });

  it('assembles the record: process pending, resources summed, target profiles; re-judging changes nothing', async () => {
    const record = assembleProjectRecord(
      { ...meta, system: { id: 'oracle', harness: 'oracle', model: null } },
      project,
      checkpoints,
      final,
      [],
    );
    expect(record.process).toEqual({ score: null, passRate: null });
    expect(record.resources).toEqual({ agentSeconds: 360, inputTokens: 6000, outputTokens: 600, totalTokens: 6600 });
    expect(record.final.targets.map((t) => [t.group, t.score])).toEqual([
      ['artifact-quality', 100],
      ['cross-file-consistency', 100],
      ['package-acceptance', null],
    ]);
    // From the stored snapshots under the same setup: the same verdicts, reuse included.
    const again = await rejudgeProject(d, { record, project, workDir: tmp('assay-rejudge-') });
    expect(again.checkpoints.map((c) => c.verdicts)).toEqual(record.checkpoints.map((c) => c.verdicts));
    expect(again.final.verdicts).toEqual(record.final.verdicts);
    // Re-judging parses every checkpoint's documents again: over a minute on a loaded 2-core machine.
  }, 240_000);
});

describe('project evaluation of a run that never applied the correction', () => {
  const flaw = path.join(project.evaluator.flawsDir, 'correction-not-applied');
  const d = deps();
  let checkpoints: CheckpointRecord[] = [];
  let final: FinalEvaluation;
  beforeAll(async () => {
    checkpoints = await runCheckpoints(d, (s) => (existsSync(path.join(flaw, s)) ? path.join(flaw, s) : reference(s)));
    final = await evaluateFinalCriteria(d, { project, checkpoints, workDir: tmp('assay-final-') });
  });

  it('fails the correction at its checkpoint', () => {
    const t03 = checkpoints.find((c) => c.subtaskId === 't03-apply-correction');
    expect(t03?.verdicts.find((v) => v.criterionId === 'capex-2026-corrected')).toMatchObject({
      decision: 'not-satisfied',
      source: 'check',
    });
  });

  it('trips the fatal gate: final score 0, whatever is pending', () => {
    expect(final).toMatchObject({ gateTriggered: true, gates: ['fatal-stale-capex'], score: 0 });
    expect(final.unjudged).toEqual(['pa-handover-quality']);
    expect(final.verdicts.find((v) => v.criterionId === 'fa-capex-corrected')).toMatchObject({
      decision: 'not-satisfied',
      source: 'check',
    });
    // Criteria depending on the uncorrected figure earn nothing, and say why when they agreed anyway.
    const dependants = final.verdicts.filter(
      (v) => project.evaluator.criteria.final.find((c) => c.id === v.criterionId)?.dependsOn.length,
    );
    expect(
      dependants.map(
        (v) => `${v.criterionId}: ${v.decision}, effective ${v.effective}, blocked by ${v.blockedBy.join(', ')}`,
      ),
    ).toMatchInlineSnapshot(`
      [
        "cf-memo-capex-total: satisfied, effective 0, blocked by fa-capex-corrected",
        "cf-deck-capex-total: satisfied, effective 0, blocked by fa-capex-corrected",
      ]
    `);
  });
});
