// Activities of multi-stage projects (DeliverBench): one persistent workspace,
// staged releases, checkpoints preserved by content, checkpoint and final
// evaluation, and the project record. Built over injected clients like the
// trial activities.
import { existsSync, mkdirSync, writeFileSync, copyFileSync } from 'node:fs';
import path from 'node:path';
import type { LoadedProject } from '@assay/benchmark';
import {
  agentRunSchema,
  checkpointRecordSchema,
  scoreCriteriaVerdicts,
  unjudgedCriterionVerdicts,
  type CriteriaEvaluation,
  type CheckpointRecord,
  type FeedbackInjection,
  type ProjectRecord,
  type ProjectTrialInput,
  type SubtaskInput,
} from '@assay/core';
import type { EvidenceTools } from './evaluate-deliverables.js';
import type { JudgeFactory } from './evaluate-items.js';
import { createBenchmarkLookup } from './load-benchmark-once.js';
import {
  allSubtasks,
  assembleProjectRecord,
  evaluateCheckpointCriteria,
  evaluateFinalCriteria,
  subtaskSpec,
  type EvaluationDeps,
  type FinalEvaluation,
} from './project-evaluation.js';
import {
  checkpointKey,
  openResultsStore,
  projectDirKey,
  snapshotDirectory,
  subtaskDirKey,
  writeProjectRecord,
  type ResultsStore,
  type Snapshot,
} from '@assay/results';
import { projectPaths } from './project-paths.js';
import { agentStatusOf, runHarness, type AgentRun, type HarnessDeps } from './run-harness.js';
import { holdForFaultInjection, withHeartbeat } from './heartbeat.js';
import { emptyDir, mountWorkVolume, unmountWorkVolume, type StorageCap } from './workspace-volume.js';

export interface ProjectActivityDeps extends HarnessDeps {
  evidence: EvidenceTools;
  /** The judge for a job's setup; absent: every criterion without a decisive check stays unjudged. */
  judgeFor?: JudgeFactory;
  /** Fault injection for chaos tests: step name -> hold in ms (see parseFaultDelays). */
  faults?: Record<string, number>;
}

export function createProjectActivities(deps: ProjectActivityDeps) {
  const benchmarks = createBenchmarkLookup();
  const projectOf = (p: ProjectTrialInput): LoadedProject => benchmarks.project(p.benchmark.root, p.projectId);
  const storeOf = (p: ProjectTrialInput): ResultsStore => openResultsStore(p.resultsDir);
  const subtaskKey = (p: ProjectTrialInput, id: string) => subtaskDirKey(p.system.id, p.projectId, p.trial, id);
  const projectKey = (p: ProjectTrialInput) => projectDirKey(p.system.id, p.projectId, p.trial);
  const readCheckpoints = (p: ProjectTrialInput, project: LoadedProject) =>
    Promise.all(
      allSubtasks(project).map(
        async (id) =>
          (await requireJson(storeOf(p), `${subtaskKey(p, id)}/checkpoint-record.json`)) as CheckpointRecord,
      ),
    );

  const evalDeps = (p: ProjectTrialInput): EvaluationDeps => ({
    evidence: deps.evidence,
    judge: deps.judgeFor?.(p.judge, { resultsDir: p.resultsDir }) ?? null,
    judgeSetup: p.judge,
    store: storeOf(p),
  });
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
      workDir: path.join(projectPaths(subtask.project).evalDir, subtask.subtaskId),
    });
    await storeOf(subtask.project).putJson(`${subtaskKey(subtask.project, subtask.subtaskId)}/evaluation.json`, result);
    return result;
  };

  return {
    async prepareProjectWorkspace(input: ProjectTrialInput): Promise<{ stages: { id: string; subtasks: string[] }[] }> {
      const project = projectOf(input);
      const p = projectPaths(input);
      const cap = mountWorkVolume(p.workDir, input.resources.storageGiB);
      await storeOf(input).putJson(`${projectKey(input)}/storage.json`, cap);
      if (!existsSync(p.preparedMarker)) {
        emptyDir(p.workDir);
        mkdirSync(path.join(p.workspace, 'inputs'), { recursive: true });
        mkdirSync(path.join(p.workspace, 'outputs'), { recursive: true });
        mkdirSync(p.instructionDir, { recursive: true });
        writeFileSync(p.preparedMarker, new Date().toISOString());
      }
      return { stages: project.spec.stages.map((s) => ({ id: s.id, subtasks: s.subtasks.map((t) => t.id) })) };
    },

    /** Copy one stage's materials and feedback into the workspace; later stages stay out of reach. */
    async releaseStage(args: { project: ProjectTrialInput; stageId: string }): Promise<string[]> {
      const project = projectOf(args.project);
      await holdForFaultInjection(deps.faults?.release ?? 0);
      const stage = project.spec.stages.find((s) => s.id === args.stageId);
      if (!stage) throw new Error(`project "${project.spec.id}" has no stage "${args.stageId}"`);
      const inputs = path.join(projectPaths(args.project).workspace, 'inputs');
      return stage.releases.map((r) => {
        const to = r.to ?? path.basename(r.path);
        mkdirSync(path.dirname(path.join(inputs, to)), { recursive: true });
        copyFileSync(path.join(project.releasesDir, r.path), path.join(inputs, to));
        return to;
      });
    },

    async releaseFeedback(args: { project: ProjectTrialInput; feedback: FeedbackInjection[] }): Promise<void> {
      const dir = path.join(projectPaths(args.project).workspace, 'inputs', 'feedback');
      mkdirSync(dir, { recursive: true });
      for (const f of args.feedback) writeFileSync(path.join(dir, path.basename(f.name)), f.text);
    },

    async runSubtaskAgent(args: { subtask: SubtaskInput; workflowId: string }): Promise<AgentRun> {
      const { subtask } = args;
      const project = projectOf(subtask.project);
      const spec = subtaskSpec(project, subtask.subtaskId);
      const p = projectPaths(subtask.project);
      writeFileSync(path.join(p.instructionDir, 'instruction.md'), renderSubtaskInstruction(project, spec));
      return runHarness(deps, {
        workflowId: args.workflowId,
        resultDir: p.subtaskDir(subtask.subtaskId),
        system: subtask.project.system,
        evaluatorDir: path.join(project.dir, 'evaluator'),
        workspace: p.workspace,
        instructionDir: p.instructionDir,
        env: {
          ASSAY_PROJECT_ID: project.spec.id,
          ASSAY_SUBTASK_ID: spec.id,
          ASSAY_SUBTASK_INDEX: String(subtask.index),
          ASSAY_TRIAL: String(subtask.project.trial),
        },
        labels: {
          'assay.job': subtask.project.jobId,
          'assay.system': subtask.project.system.id,
          'assay.project': project.spec.id,
          'assay.subtask': spec.id,
          'assay.trial': String(subtask.project.trial),
          'assay.role': 'agent',
        },
        limits: subtask.project.limits,
        resources: subtask.project.resources,
      });
    },

    /** Preserve the whole workspace at submission. Idempotent: the first snapshot stands. */
    async snapshotCheckpoint(args: { subtask: SubtaskInput }): Promise<Snapshot> {
      const { project, subtaskId } = args.subtask;
      const store = storeOf(project);
      const key = checkpointKey(project.system.id, project.projectId, project.trial, subtaskId);
      const earlier = await store.getJson(key);
      if (earlier) return earlier as Snapshot;
      await holdForFaultInjection(deps.faults?.snapshot ?? 0);
      const snap = await snapshotDirectory(store, projectPaths(project).workspace);
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
      });
      const { project, subtaskId } = args.subtask;
      await storeOf(project).putJson(`${subtaskKey(project, subtaskId)}/checkpoint-record.json`, record);
    },

    /** Final package: artifact quality (source criteria re-applied, reused when unchanged), cross-file, acceptance. */
    async evaluateFinalPackage(args: { project: ProjectTrialInput }): Promise<FinalEvaluation> {
      const project = projectOf(args.project);
      const checkpoints = await readCheckpoints(args.project, project);
      const result = await evaluateFinalCriteria(evalDeps(args.project), {
        project,
        checkpoints,
        workDir: path.join(projectPaths(args.project).evalDir, 'final'),
      });
      await storeOf(args.project).putJson(`${projectKey(args.project)}/final/evaluation.json`, result);
      return result;
    },

    async recordProject(args: {
      project: ProjectTrialInput;
      injected: { name: string; beforeSubtask: string | null }[];
    }): Promise<ProjectRecord> {
      const project = projectOf(args.project);
      const store = storeOf(args.project);
      const checkpoints = await readCheckpoints(args.project, project);
      const final = (await requireJson(store, `${projectKey(args.project)}/final/evaluation.json`)) as FinalEvaluation;
      const storage = (await store.getJson(`${projectKey(args.project)}/storage.json`)) as StorageCap | null;
      const { jobId, benchmark, system, trial } = args.project;
      const record = assembleProjectRecord(
        {
          jobId,
          benchmark: { id: benchmark.id, version: benchmark.version },
          system: { id: system.id, harness: system.harness, model: system.model ?? null },
          trial,
        },
        project,
        checkpoints,
        final,
        args.injected,
        storage ?? undefined,
      );
      await writeProjectRecord(store, record);
      unmountWorkVolume(projectPaths(args.project).workDir);
      return record;
    },
  };
}

export type ProjectActivities = ReturnType<typeof createProjectActivities>;

export function renderSubtaskInstruction(
  project: LoadedProject,
  subtask: LoadedProject['spec']['stages'][number]['subtasks'][number],
): string {
  return [
    `# ${project.spec.title}: ${subtask.title}`,
    '',
    `Your role: ${project.spec.role.trim()}`,
    `Project objective: ${project.spec.objective.trim()}`,
    '',
    subtask.instructions.trim(),
    '',
    '---',
    'Materials released so far are in /workspace/inputs/ (client feedback under /workspace/inputs/feedback/ when any).',
    'Your earlier deliverables are in /workspace/outputs/; revise them there when needed. Submit by writing:',
    ...subtask.deliverables.map((d) => `- /workspace/outputs/${d.path} (${d.format})`),
    '',
  ].join('\n');
}

async function requireJson(store: ResultsStore, key: string): Promise<unknown> {
  const value = await store.getJson(key);
  if (value === null) throw new Error(`${store.location}: ${key} is missing`);
  return value;
}
