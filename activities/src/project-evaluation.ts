// Evaluation and records of multi-stage projects, free of Temporal: used by the project
// activities and by re-judging (`assay judge`) alike. Items are decided by evaluateItems
// (core's decideItems); scores come from core.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { LoadedProject } from '@assay/benchmark';
import {
  PROJECT_RECORD_SCHEMA,
  type Provenance,
  projectRecordSchema,
  scoreCriteriaVerdicts,
  scoreProjectTrial,
  toCriterionVerdict,
  type CheckpointRecord,
  type Criterion,
  type CriteriaEvaluation,
  type FinalCriterion,
  type JobSpec,
  type PriorVerdict,
  type ProjectRecord,
  type SnapshotFile,
} from '@assay/core';
import { evaluateItems, type EvaluationItem, type EvaluationTools } from './evaluate-items.js';
import { judgeProvenanceOf, withJudge } from './judge-provenance.js';
import { restoreSnapshot, type ResultsStore } from '@assay/results';
import type { StorageCap } from './workspace-volume.js';

export type FinalEvaluation = CriteriaEvaluation & { packageFiles: SnapshotFile[] };

export interface EvaluationDeps extends EvaluationTools {
  judgeSetup: JobSpec['judge'];
  /** The job's results: its content-addressed store holds the snapshots. */
  store: ResultsStore;
}

export function subtaskSpec(project: LoadedProject, id: string) {
  for (const stage of project.spec.stages) for (const t of stage.subtasks) if (t.id === id) return t;
  throw new Error(`project "${project.spec.id}" has no subtask "${id}"`);
}

export function allSubtasks(project: LoadedProject): string[] {
  return project.spec.stages.flatMap((s) => s.subtasks.map((t) => t.id));
}

/** The `outputs/` part of a workspace snapshot, relative to outputs/. */
export function outputsOf(files: readonly SnapshotFile[]): SnapshotFile[] {
  return files
    .filter((f) => f.path.startsWith('outputs/'))
    .map((f) => ({ ...f, path: f.path.slice('outputs/'.length) }));
}

const dependencies = (criteria: readonly (Criterion | FinalCriterion)[]) =>
  new Map(criteria.map((c) => [c.id, c.dependsOn]));

/** Decide criteria over a restored submission and score them. */
async function evaluateCriteriaOn(
  deps: EvaluationDeps,
  criteria: readonly (Criterion | FinalCriterion)[],
  items: EvaluationItem[],
  args: { dir: string; files: SnapshotFile[]; id: string; request: string; prior?: Map<string, PriorVerdict> },
): Promise<CriteriaEvaluation> {
  const decisions = await evaluateItems(deps, {
    items,
    submissionDir: args.dir,
    files: args.files,
    context: { id: args.id, request: args.request },
    judgeSetup: deps.judgeSetup,
    prior: args.prior,
  });
  const verdicts = criteria.map((c, i) => {
    const d = decisions[i];
    if (!d) throw new Error(`criterion "${c.id}" was not decided`);
    return toCriterionVerdict(c, d);
  });
  return scoreCriteriaVerdicts(verdicts, dependencies(criteria));
}

/** A checkpoint by its own criteria, on its preserved snapshot (restored into `workDir`). */
export async function evaluateCheckpointCriteria(
  deps: EvaluationDeps,
  args: { project: LoadedProject; subtaskId: string; snapshotFiles: readonly SnapshotFile[]; workDir: string },
): Promise<CriteriaEvaluation> {
  const { project, subtaskId } = args;
  rmSync(args.workDir, { recursive: true, force: true });
  await restoreSnapshot(deps.store, args.snapshotFiles, args.workDir, 'outputs/');
  // An empty checkpoint is an empty folder: the judge is told so, not that a host path is missing.
  mkdirSync(args.workDir, { recursive: true });
  const criteria = project.evaluator.criteria.checkpoints[subtaskId] ?? [];
  const items = criteria.map((c) => ({ id: c.id, text: c.text, check: c.check, group: c.dimension }));
  return evaluateCriteriaOn(deps, criteria, items, {
    dir: args.workDir,
    files: outputsOf(args.snapshotFiles),
    id: `${project.spec.id}/${subtaskId}`,
    request: subtaskSpec(project, subtaskId).instructions,
  });
}

/** Final criteria as applied: a `reuses` criterion takes its source's text and check. */
function finalItems(project: LoadedProject): EvaluationItem[] {
  const sources = new Map<string, Criterion>();
  for (const [sub, list] of Object.entries(project.evaluator.criteria.checkpoints))
    for (const c of list) sources.set(`${sub}/${c.id}`, c);
  return project.evaluator.criteria.final.map((c) => {
    const source = c.reuses ? sources.get(c.reuses) : undefined;
    return {
      id: c.id,
      text: source?.text ?? c.text,
      check: c.check ?? source?.check,
      group: c.target,
      reuses: c.reuses,
    };
  });
}

/** Final package: artifact quality (source criteria re-applied, reused when unchanged), cross-file, acceptance. */
export async function evaluateFinalCriteria(
  deps: EvaluationDeps,
  args: { project: LoadedProject; checkpoints: readonly CheckpointRecord[]; workDir: string },
): Promise<FinalEvaluation> {
  const { project } = args;
  const last = args.checkpoints.at(-1);
  if (!last) throw new Error(`project "${project.spec.id}" has no checkpoint to evaluate`);
  rmSync(args.workDir, { recursive: true, force: true });
  await restoreSnapshot(deps.store, last.snapshot.files, args.workDir, 'outputs/');
  mkdirSync(args.workDir, { recursive: true });
  const outputs = outputsOf(last.snapshot.files);
  const prior = new Map<string, PriorVerdict>();
  for (const cp of args.checkpoints) for (const v of cp.verdicts) prior.set(`${cp.subtaskId}/${v.criterionId}`, v);
  const packageList = project.spec.finalPackage.map((d) => d.path).join(', ');
  const evaluation = await evaluateCriteriaOn(deps, project.evaluator.criteria.final, finalItems(project), {
    dir: args.workDir,
    files: outputs,
    id: `${project.spec.id}/final`,
    request: `${project.spec.objective}\n\nFinal package: ${packageList}`,
    prior,
  });
  return {
    ...evaluation,
    packageFiles: outputs.filter((f) => project.spec.finalPackage.some((d) => d.path === f.path)),
  };
}

export interface ProjectRecordMeta {
  jobId: string;
  benchmark: { id: string; version: string };
  system: { id: string; harness: string; model: string | null };
  trial: number;
  provenance?: Provenance;
}

/** The project record: checkpoints, the final evaluation, and core's process/profile/resource scores. */
export function assembleProjectRecord(
  meta: ProjectRecordMeta,
  project: LoadedProject,
  checkpoints: CheckpointRecord[],
  final: FinalEvaluation,
  injected: { name: string; beforeSubtask: string | null }[],
  storage?: StorageCap,
): ProjectRecord {
  const scores = scoreProjectTrial(checkpoints, final.verdicts, dependencies(project.evaluator.criteria.final));
  return projectRecordSchema.parse({
    schema: PROJECT_RECORD_SCHEMA,
    ...meta,
    project: { id: project.spec.id, subtasks: checkpoints.length },
    checkpoints,
    process: scores.process,
    final: {
      verdicts: final.verdicts,
      score: final.score,
      raw: final.raw,
      gateTriggered: final.gateTriggered,
      gates: final.gates,
      unjudged: final.unjudged,
      targets: scores.targets,
      dimensions: scores.dimensions,
      packageFiles: final.packageFiles,
    },
    resources: scores.resources,
    injectedFeedback: injected,
    ...(storage ? { storage } : {}),
    recordedAt: new Date().toISOString(),
  });
}

/**
 * Re-evaluate a recorded project under another judge setup, from its preserved
 * snapshots: checkpoints first, then the final package (reusing the new checkpoint
 * verdicts where nothing changed). No agent runs; the original record is untouched.
 */
export async function rejudgeProject(
  deps: EvaluationDeps,
  args: { record: ProjectRecord; project: LoadedProject; workDir: string },
): Promise<ProjectRecord> {
  const checkpoints: CheckpointRecord[] = [];
  for (const cp of args.record.checkpoints) {
    const e = await evaluateCheckpointCriteria(deps, {
      project: args.project,
      subtaskId: cp.subtaskId,
      snapshotFiles: cp.snapshot.files,
      workDir: path.join(args.workDir, cp.subtaskId),
    });
    checkpoints.push({
      ...cp,
      verdicts: e.verdicts,
      score: e.score,
      gateTriggered: e.gateTriggered,
      unjudged: e.unjudged,
    });
  }
  const final = await evaluateFinalCriteria(deps, {
    project: args.project,
    checkpoints,
    workDir: path.join(args.workDir, 'final'),
  });
  const { jobId, benchmark, system, trial } = args.record;
  // The judge that re-judged it, not the original's.
  const judged = [...checkpoints.flatMap((c) => c.verdicts), ...final.verdicts];
  const provenance =
    args.record.provenance && withJudge(args.record.provenance, judgeProvenanceOf(deps.judgeSetup, judged));
  return assembleProjectRecord(
    { jobId, benchmark, system, trial, ...(provenance ? { provenance } : {}) },
    args.project,
    checkpoints,
    final,
    args.record.injectedFeedback,
    args.record.storage,
  );
}
