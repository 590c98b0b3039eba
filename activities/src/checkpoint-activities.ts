// Activities of a project's checkpoints and record: snapshot each submission by content,
// evaluate it by its own criteria, evaluate the final package, assemble the record.
import path from 'node:path';
import {
  agentRunSchema,
  checkpointRecordSchema,
  pinOf,
  scoreCriteriaVerdicts,
  unjudgedCriterionVerdicts,
  type CriteriaEvaluation,
  type CheckpointRecord,
  type ProjectMove,
  type ProjectRecord,
  type ProjectRestart,
  type ProjectTrialInput,
  type SubtaskInput,
} from '@assay/core';
import { digestProject, type LoadedProject } from '@assay/benchmark';
import {
  CHECKPOINT_RECORD_FILE,
  EVALUATION_FILE,
  HOST_FILE,
  STORAGE_FILE,
  checkpointKey,
  finalEvaluationKey,
  snapshotDirectory,
  writeProjectRecord,
  type ResultsStore,
  type Snapshot,
} from '@assay/results';
import { agentProvenanceOf, readAgentRuns } from './agent-provenance.js';
import { judgeProvenanceOf } from './judge-provenance.js';
import { holdForFaultInjection, withHeartbeat } from './heartbeat.js';
import { requireJson, type ProjectContext } from './project-context.js';
import {
  allSubtasks,
  assembleProjectRecord,
  evaluateCheckpointCriteria,
  evaluateFinalCriteria,
  type FinalEvaluation,
} from './project-evaluation.js';
import { agentStatusOf, type AgentRun } from './run-harness.js';
import { unmountWorkVolume, type StorageCap } from './workspace-volume.js';

export function createCheckpointActivities(ctx: ProjectContext) {
  return {
    /** Preserve the whole workspace at submission. Idempotent: the first snapshot stands. */
    snapshotCheckpoint: (args: { subtask: SubtaskInput }) => snapshotCheckpoint(ctx, args),

    /** Judge a checkpoint by its own criteria, on the preserved snapshot (not the live workspace). */
    evaluateCheckpoint: (args: Submission) =>
      withHeartbeat('evaluating checkpoint', () => evaluateCheckpoint(ctx, args)),

    /** Evaluation failed after its retries: keep the checkpoint, mark every criterion unjudged. */
    markCheckpointUnjudged: (args: Submission & { error: string }) => markCheckpointUnjudged(ctx, args),

    recordCheckpoint: (args: CheckpointOutcome) => recordCheckpoint(ctx, args),

    /** Final package: artifact quality (source criteria re-applied, reused when unchanged), cross-file, acceptance. */
    evaluateFinalPackage: (args: { project: ProjectTrialInput }) => evaluateFinalPackage(ctx, args),

    /** Write the record, then release this host's work volume (on another host there is none to release). */
    recordProject: (args: ProjectOutcome) => recordProject(ctx, args),
  };
}

/** A subtask's submission, as preserved at its checkpoint. */
interface Submission {
  subtask: SubtaskInput;
  snapshot: Snapshot;
}

interface CheckpointOutcome extends Submission {
  run: AgentRun;
  evaluation: CriteriaEvaluation;
}

interface ProjectOutcome {
  project: ProjectTrialInput;
  injected: { name: string; beforeSubtask: string | null }[];
  placement?: { host: string; moves: ProjectMove[] };
  restarts?: ProjectRestart[];
}

async function snapshotCheckpoint(ctx: ProjectContext, args: { subtask: SubtaskInput }): Promise<Snapshot> {
  const { project, subtaskId } = args.subtask;
  const store = ctx.storeOf(project);
  const key = checkpointKey(project.system.id, project.projectId, project.trial, subtaskId);
  const earlier = await store.getJson(key);
  if (earlier) return earlier as Snapshot;
  await holdForFaultInjection(ctx.deps.faults?.snapshot ?? 0);
  const snap = await snapshotDirectory(store, ctx.pathsOf(project).workspace);
  await store.putJson(key, snap);
  return snap;
}

async function evaluateCheckpoint(ctx: ProjectContext, args: Submission): Promise<CriteriaEvaluation> {
  const { deps, pathsOf, projectOf, storeOf, subtaskKey, evalDeps } = ctx;
  const { subtask } = args;
  await holdForFaultInjection(deps.faults?.evaluate ?? 0);
  const result = await evaluateCheckpointCriteria(evalDeps(subtask.project), {
    project: projectOf(subtask.project),
    subtaskId: subtask.subtaskId,
    snapshotFiles: args.snapshot.files,
    workDir: path.join(pathsOf(subtask.project).evalDir, subtask.subtaskId),
  });
  await storeOf(subtask.project).putJson(
    `${subtaskKey(subtask.project, subtask.subtaskId)}/${EVALUATION_FILE}`,
    result,
  );
  return result;
}

async function markCheckpointUnjudged(
  ctx: ProjectContext,
  args: Submission & { error: string },
): Promise<CriteriaEvaluation> {
  const project = ctx.projectOf(args.subtask.project);
  const criteria = project.evaluator.criteria.checkpoints[args.subtask.subtaskId] ?? [];
  const verdicts = unjudgedCriterionVerdicts(criteria, `evaluation failed: ${args.error}`);
  return scoreCriteriaVerdicts(verdicts, new Map(criteria.map((c) => [c.id, c.dependsOn])));
}

async function recordCheckpoint(ctx: ProjectContext, args: CheckpointOutcome): Promise<void> {
  const { storeOf, subtaskKey } = ctx;
  const { run } = args;
  const record: CheckpointRecord = checkpointRecordSchema.parse({
    subtaskId: args.subtask.subtaskId,
    stageId: args.subtask.stageId,
    agent: { ...agentRunSchema.parse(run), status: agentStatusOf(run) },
    usage: run.usage,
    snapshot: args.snapshot,
    verdicts: args.evaluation.verdicts,
    score: args.evaluation.score,
    gateTriggered: args.evaluation.gateTriggered,
    unjudged: args.evaluation.unjudged,
    ...(await hostOfAgent(storeOf(args.subtask.project), subtaskKey(args.subtask.project, args.subtask.subtaskId))),
  });
  const { project, subtaskId } = args.subtask;
  await storeOf(project).putJson(`${subtaskKey(project, subtaskId)}/${CHECKPOINT_RECORD_FILE}`, record);
}

async function evaluateFinalPackage(
  ctx: ProjectContext,
  args: { project: ProjectTrialInput },
): Promise<FinalEvaluation> {
  const project = ctx.projectOf(args.project);
  const checkpoints = await ctx.readCheckpoints(args.project, project);
  const result = await evaluateFinalCriteria(ctx.evalDeps(args.project), {
    project,
    checkpoints,
    workDir: path.join(ctx.pathsOf(args.project).evalDir, 'final'),
  });
  await ctx.storeOf(args.project).putJson(finalEvaluationKey(ctx.projectKey(args.project)), result);
  return result;
}

async function recordProject(ctx: ProjectContext, args: ProjectOutcome): Promise<ProjectRecord> {
  const project = ctx.projectOf(args.project);
  const store = ctx.storeOf(args.project);
  const record = await assembleRecordFromStore(ctx, store, args, project);
  const placed = {
    ...record,
    ...(args.placement ? { host: args.placement.host, moves: args.placement.moves } : {}),
    ...(args.restarts?.length ? { restarts: args.restarts } : {}),
  };
  await writeProjectRecord(store, placed);
  unmountWorkVolume(ctx.pathsOf(args.project).workDir);
  return placed;
}

/** The project's record from what its checkpoints, final evaluation and agents left in the store. */
async function assembleRecordFromStore(
  ctx: ProjectContext,
  store: ResultsStore,
  args: ProjectOutcome,
  project: LoadedProject,
): Promise<ProjectRecord> {
  const { deps, subtaskKey, projectKey, readCheckpoints } = ctx;
  const checkpoints = await readCheckpoints(args.project, project);
  const final = (await requireJson(store, finalEvaluationKey(projectKey(args.project)))) as FinalEvaluation;
  const storage = (await store.getJson(`${projectKey(args.project)}/${STORAGE_FILE}`)) as StorageCap | null;
  const { jobId, benchmark, system, trial } = args.project;
  const agentRuns = await readAgentRuns(
    store,
    allSubtasks(project).map((id) => subtaskKey(args.project, id)),
  );
  return assembleProjectRecord(
    {
      jobId,
      benchmark: { id: benchmark.id, version: benchmark.version },
      system: { id: system.id, harness: system.harness, model: system.model ?? null },
      trial,
      provenance: {
        unit: pinOf(digestProject(project)),
        ...(deps.assay ? { assay: deps.assay } : {}),
        ...agentProvenanceOf(agentRuns),
        judge: judgeProvenanceOf(args.project.judge, [...checkpoints.flatMap((c) => c.verdicts), ...final.verdicts]),
      },
    },
    project,
    checkpoints,
    final,
    args.injected,
    storage ?? undefined,
  );
}

/** The host that ran a subtask's agent, as runSubtaskAgent noted it (nothing for runs before hosts). */
async function hostOfAgent(store: ResultsStore, subtaskKey: string): Promise<{ host?: string }> {
  const host = await store.getText(`${subtaskKey}/${HOST_FILE}`);
  return host === null ? {} : { host };
}
