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
import { digestProject } from '@assay/benchmark';
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
  const { deps, pathsOf, projectOf, storeOf, subtaskKey, projectKey, readCheckpoints, evalDeps } = ctx;
  const evaluateCheckpoint = async (args: {
    subtask: SubtaskInput;
    snapshot: Snapshot;
  }): Promise<CriteriaEvaluation> => {
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
  };

  return {
    /** Preserve the whole workspace at submission. Idempotent: the first snapshot stands. */
    async snapshotCheckpoint(args: { subtask: SubtaskInput }): Promise<Snapshot> {
      const { project, subtaskId } = args.subtask;
      const store = storeOf(project);
      const key = checkpointKey(project.system.id, project.projectId, project.trial, subtaskId);
      const earlier = await store.getJson(key);
      if (earlier) return earlier as Snapshot;
      await holdForFaultInjection(deps.faults?.snapshot ?? 0);
      const snap = await snapshotDirectory(store, pathsOf(project).workspace);
      await store.putJson(key, snap);
      return snap;
    },

    /** Judge a checkpoint by its own criteria, on the preserved snapshot (not the live workspace). */
    async evaluateCheckpoint(args: { subtask: SubtaskInput; snapshot: Snapshot }): Promise<CriteriaEvaluation> {
      return withHeartbeat('evaluating checkpoint', () => evaluateCheckpoint(args));
    },

    /** Evaluation failed after its retries: keep the checkpoint, mark every criterion unjudged. */
    async markCheckpointUnjudged(args: {
      subtask: SubtaskInput;
      snapshot: Snapshot;
      error: string;
    }): Promise<CriteriaEvaluation> {
      const project = projectOf(args.subtask.project);
      const criteria = project.evaluator.criteria.checkpoints[args.subtask.subtaskId] ?? [];
      const verdicts = unjudgedCriterionVerdicts(criteria, `evaluation failed: ${args.error}`);
      return scoreCriteriaVerdicts(verdicts, new Map(criteria.map((c) => [c.id, c.dependsOn])));
    },

    async recordCheckpoint(args: {
      subtask: SubtaskInput;
      run: AgentRun;
      snapshot: Snapshot;
      evaluation: CriteriaEvaluation;
    }): Promise<void> {
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
    },

    /** Final package: artifact quality (source criteria re-applied, reused when unchanged), cross-file, acceptance. */
    async evaluateFinalPackage(args: { project: ProjectTrialInput }): Promise<FinalEvaluation> {
      const project = projectOf(args.project);
      const checkpoints = await readCheckpoints(args.project, project);
      const result = await evaluateFinalCriteria(evalDeps(args.project), {
        project,
        checkpoints,
        workDir: path.join(pathsOf(args.project).evalDir, 'final'),
      });
      await storeOf(args.project).putJson(finalEvaluationKey(projectKey(args.project)), result);
      return result;
    },

    /** Write the record, then release this host's work volume (on another host there is none to release). */
    async recordProject(args: {
      project: ProjectTrialInput;
      injected: { name: string; beforeSubtask: string | null }[];
      placement?: { host: string; moves: ProjectMove[] };
      restarts?: ProjectRestart[];
    }): Promise<ProjectRecord> {
      const project = projectOf(args.project);
      const store = storeOf(args.project);
      const checkpoints = await readCheckpoints(args.project, project);
      const final = (await requireJson(store, finalEvaluationKey(projectKey(args.project)))) as FinalEvaluation;
      const storage = (await store.getJson(`${projectKey(args.project)}/${STORAGE_FILE}`)) as StorageCap | null;
      const { jobId, benchmark, system, trial } = args.project;
      const agentRuns = await readAgentRuns(
        store,
        allSubtasks(project).map((id) => subtaskKey(args.project, id)),
      );
      const record = assembleProjectRecord(
        {
          jobId,
          benchmark: { id: benchmark.id, version: benchmark.version },
          system: { id: system.id, harness: system.harness, model: system.model ?? null },
          trial,
          provenance: {
            unit: pinOf(digestProject(project)),
            ...(deps.assay ? { assay: deps.assay } : {}),
            ...agentProvenanceOf(agentRuns),
            judge: judgeProvenanceOf(args.project.judge, [
              ...checkpoints.flatMap((c) => c.verdicts),
              ...final.verdicts,
            ]),
          },
        },
        project,
        checkpoints,
        final,
        args.injected,
        storage ?? undefined,
      );
      const placed = {
        ...record,
        ...(args.placement ? { host: args.placement.host, moves: args.placement.moves } : {}),
        ...(args.restarts?.length ? { restarts: args.restarts } : {}),
      };
      await writeProjectRecord(store, placed);
      unmountWorkVolume(pathsOf(args.project).workDir);
      return placed;
    },
  };
}

/** The host that ran a subtask's agent, as runSubtaskAgent noted it (nothing for runs before hosts). */
async function hostOfAgent(store: ResultsStore, subtaskKey: string): Promise<{ host?: string }> {
  const host = await store.getText(`${subtaskKey}/${HOST_FILE}`);
  return host === null ? {} : { host };
}
