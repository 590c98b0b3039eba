// Evaluation and records of multi-stage projects, free of Temporal: used by the
// project activities and by re-judging (`assay judge`) alike.
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { LoadedProject } from '@assay/benchmark';
import {
  PROJECT_RECORD_SCHEMA,
  projectRecordSchema,
  scoreGroups,
  scoreProjectFinal,
  type CheckpointRecord,
  type CriterionVerdict,
  type JobSpec,
  type ProjectRecord,
  type ScoredCriterion,
  type SnapshotFile,
} from '@assay/core';
import type { EvidenceTools } from './evaluate-deliverables.js';
import { evaluateCriteria, type CriterionToJudge, type JudgeCriteria } from './evaluate-criteria.js';
import { restoreSnapshot } from './snapshot-workspace.js';
import type { StorageCap } from './workspace-volume.js';

export interface CriteriaEvaluation {
  verdicts: CriterionVerdict[];
  score: number | null;
  raw: number | null;
  gateTriggered: boolean;
  gates: string[];
  unjudged: string[];
}

export type FinalEvaluation = CriteriaEvaluation & { packageFiles: SnapshotFile[] };

export interface EvaluationDeps {
  evidence: EvidenceTools;
  judgeCriteria?: JudgeCriteria | undefined;
  judge: JobSpec['judge'];
  /** The job's results folder: its content-addressed store holds the snapshots. */
  resultsDir: string;
}

/** Score judged criteria with the DeliverBench rules (dependencies, gates, clipping). */
export function scoreCriteriaVerdicts(
  verdicts: Omit<CriterionVerdict, 'effective' | 'blockedBy'>[],
  dependsOn: Map<string, string[]>,
): CriteriaEvaluation {
  const s = scoreProjectFinal(
    verdicts.map((v) => ({
      id: v.criterionId,
      weight: v.weight,
      fatal: v.fatal,
      dependsOn: dependsOn.get(v.criterionId) ?? [],
      h: v.decision === 'unjudged' ? null : v.decision === 'satisfied' ? 1 : 0,
    })),
  );
  return {
    verdicts: verdicts.map((v, i) => ({
      ...v,
      effective: s.criteria[i]?.effective ?? null,
      blockedBy: s.criteria[i]?.blockedBy ?? [],
    })),
    score: s.score,
    raw: s.raw,
    gateTriggered: s.gateTriggered,
    gates: s.gates,
    unjudged: s.unjudged,
  };
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

/** A checkpoint by its own criteria, on its preserved snapshot (restored into `workDir`). */
export async function evaluateCheckpointCriteria(
  deps: EvaluationDeps,
  args: { project: LoadedProject; subtaskId: string; snapshotFiles: readonly SnapshotFile[]; workDir: string },
): Promise<CriteriaEvaluation> {
  const { project, subtaskId } = args;
  rmSync(args.workDir, { recursive: true, force: true });
  restoreSnapshot(deps.resultsDir, args.snapshotFiles, args.workDir, 'outputs/');
  const criteria = project.evaluator.criteria.checkpoints[subtaskId] ?? [];
  const verdicts = await evaluateCriteria({
    criteria: criteria.map(
      (c): CriterionToJudge => ({
        criterionId: c.id,
        text: c.text,
        weight: c.weight,
        fatal: c.fatal,
        dimension: c.dimension,
        target: null,
        check: c.check,
      }),
    ),
    outputsDir: args.workDir,
    outputs: outputsOf(args.snapshotFiles),
    evidence: deps.evidence,
    judge: deps.judge,
    prior: new Map(),
    sources: new Map(),
    judgeCriteria: deps.judgeCriteria,
    request: subtaskSpec(project, subtaskId).instructions,
    contextId: `${project.spec.id}/${subtaskId}`,
    resultsDir: deps.resultsDir,
  });
  return scoreCriteriaVerdicts(verdicts, new Map(criteria.map((c) => [c.id, c.dependsOn])));
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
  restoreSnapshot(deps.resultsDir, last.snapshot.files, args.workDir, 'outputs/');
  const outputs = outputsOf(last.snapshot.files);
  const prior = new Map<string, CriterionVerdict>();
  for (const cp of args.checkpoints) for (const v of cp.verdicts) prior.set(`${cp.subtaskId}/${v.criterionId}`, v);
  const sources = new Map<string, { text: string; check?: CriterionToJudge['check'] }>();
  for (const [sub, list] of Object.entries(project.evaluator.criteria.checkpoints))
    for (const c of list) sources.set(`${sub}/${c.id}`, { text: c.text, check: c.check });
  const criteria = project.evaluator.criteria.final;
  const verdicts = await evaluateCriteria({
    criteria: criteria.map(
      (c): CriterionToJudge => ({
        criterionId: c.id,
        text: c.text,
        weight: c.weight,
        fatal: c.fatal,
        dimension: c.dimension,
        target: c.target,
        check: c.check,
        reuses: c.reuses,
      }),
    ),
    outputsDir: args.workDir,
    outputs,
    evidence: deps.evidence,
    judge: deps.judge,
    prior,
    sources,
    judgeCriteria: deps.judgeCriteria,
    request: `${project.spec.objective}\n\nFinal package: ${project.spec.finalPackage.map((d) => d.path).join(', ')}`,
    contextId: `${project.spec.id}/final`,
    resultsDir: deps.resultsDir,
  });
  return {
    ...scoreCriteriaVerdicts(verdicts, new Map(criteria.map((c) => [c.id, c.dependsOn]))),
    packageFiles: outputs.filter((f) => project.spec.finalPackage.some((d) => d.path === f.path)),
  };
}

export interface ProjectRecordMeta {
  jobId: string;
  benchmark: { id: string; version: string };
  system: { id: string; harness: string; model: string | null };
  trial: number;
}

/** Process score, final score, profiles and resources from checkpoint records and the final evaluation. */
export function assembleProjectRecord(
  meta: ProjectRecordMeta,
  project: LoadedProject,
  checkpoints: CheckpointRecord[],
  final: FinalEvaluation,
  injected: { name: string; beforeSubtask: string | null }[],
  storage?: StorageCap,
): ProjectRecord {
  const finalCriteria = project.evaluator.criteria.final;
  const scored: ScoredCriterion[] = final.verdicts.map((v) => ({
    id: v.criterionId,
    weight: v.weight,
    fatal: v.fatal,
    dependsOn: finalCriteria.find((c) => c.id === v.criterionId)?.dependsOn ?? [],
    target: v.target ?? undefined,
    dimension: v.dimension,
    h: v.decision === 'unjudged' ? null : v.decision === 'satisfied' ? 1 : 0,
  }));
  const scores = checkpoints.map((c) => c.score);
  const known = scores.filter((s): s is number => s !== null);
  const usages = checkpoints.map((c) => c.usage);
  const tokens = usages.every((u) => u !== null)
    ? {
        input: usages.reduce((a, u) => a + (u?.inputTokens ?? 0), 0),
        output: usages.reduce((a, u) => a + (u?.outputTokens ?? 0), 0),
      }
    : null;
  return projectRecordSchema.parse({
    schema: PROJECT_RECORD_SCHEMA,
    ...meta,
    project: { id: project.spec.id, subtasks: checkpoints.length },
    checkpoints,
    process: {
      score: known.length === scores.length ? known.reduce((a, b) => a + b, 0) / known.length : null,
      passRate: known.length === scores.length ? known.filter((s) => s >= 90).length / known.length : null,
    },
    final: {
      verdicts: final.verdicts,
      score: final.score,
      raw: final.raw,
      gateTriggered: final.gateTriggered,
      gates: final.gates,
      unjudged: final.unjudged,
      targets: scoreGroups(scored, (c) => c.target),
      dimensions: scoreGroups(scored, (c) => c.dimension),
      packageFiles: final.packageFiles,
    },
    resources: {
      agentSeconds: checkpoints.reduce((a, c) => a + c.agent.durationSeconds, 0),
      inputTokens: tokens?.input ?? null,
      outputTokens: tokens?.output ?? null,
      totalTokens: tokens ? tokens.input + tokens.output : null,
    },
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
  return assembleProjectRecord(
    { jobId, benchmark, system, trial },
    args.project,
    checkpoints,
    final,
    args.record.injectedFeedback,
    args.record.storage,
  );
}
