// Activities of multi-stage projects (DeliverBench): one persistent workspace,
// staged releases, checkpoints preserved by content, checkpoint and final
// evaluation, and the project record. Built over injected clients like the
// trial activities.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import path from 'node:path';
import { loadBenchmark, type LoadedBenchmark, type LoadedProject } from '@assay/benchmark';
import {
  PROJECT_RECORD_SCHEMA, checkpointRecordSchema, projectRecordSchema, scoreGroups, scoreProjectFinal,
  type CheckpointRecord, type CriterionVerdict, type FeedbackInjection, type ProjectRecord, type ProjectTrialInput,
  type ScoredCriterion, type SubtaskInput,
} from '@assay/core';
import type { EvidenceTools } from './evaluate-deliverables.js';
import { evaluateCriteria, type CriterionToJudge, type JudgeCriteria } from './evaluate-criteria.js';
import { projectPaths } from './project-paths.js';
import { agentStatusOf, runHarness, type AgentRun, type HarnessDeps } from './run-harness.js';
import { restoreSnapshot, snapshotWorkspace, type Snapshot } from './snapshot-workspace.js';
import { holdForFaultInjection, withHeartbeat } from './heartbeat.js';
import { writeJsonAtomic } from './write-file-atomic.js';

export interface ProjectActivityDeps extends HarnessDeps {
  evidence: EvidenceTools;
  judgeCriteria?: JudgeCriteria;
  /** Fault injection for chaos tests: step name -> hold in ms (see parseFaultDelays). */
  faults?: Record<string, number>;
}

export interface CriteriaEvaluation {
  verdicts: CriterionVerdict[];
  score: number | null;
  raw: number | null;
  gateTriggered: boolean;
  gates: string[];
  unjudged: string[];
}

export function createProjectActivities(deps: ProjectActivityDeps) {
  const benchmarks = new Map<string, LoadedBenchmark>();
  const projectOf = (p: ProjectTrialInput): LoadedProject => {
    let b = benchmarks.get(p.benchmark.root);
    if (!b) {
      b = loadBenchmark(p.benchmark.root);
      benchmarks.set(p.benchmark.root, b);
    }
    const project = b.projects.find((x) => x.spec.id === p.projectId);
    if (!project) throw new Error(`project "${p.projectId}" is not in the benchmark at ${p.benchmark.root}`);
    return project;
  };
  const subtaskOf = (project: LoadedProject, id: string) => {
    for (const stage of project.spec.stages) for (const t of stage.subtasks) if (t.id === id) return t;
    throw new Error(`project "${project.spec.id}" has no subtask "${id}"`);
  };
  const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

  /** Score a list of judged criteria with the DeliverBench rules. */
  const scoreVerdicts = (verdicts: Omit<CriterionVerdict, 'effective' | 'blockedBy'>[], deps: Map<string, string[]>): CriteriaEvaluation => {
    const scored: ScoredCriterion[] = verdicts.map((v) => ({
      id: v.criterionId, weight: v.weight, fatal: v.fatal, dependsOn: deps.get(v.criterionId) ?? [],
      h: v.decision === 'unjudged' ? null : v.decision === 'satisfied' ? 1 : 0,
    }));
    const s = scoreProjectFinal(scored);
    return {
      verdicts: verdicts.map((v, i) => ({ ...v, effective: s.criteria[i]?.effective ?? null, blockedBy: s.criteria[i]?.blockedBy ?? [] })),
      score: s.score, raw: s.raw, gateTriggered: s.gateTriggered, gates: s.gates, unjudged: s.unjudged,
    };
  };

  const evaluateCheckpoint = async (args: { subtask: SubtaskInput; snapshot: Snapshot }): Promise<CriteriaEvaluation> => {
    const { subtask } = args;
    const project = projectOf(subtask.project);
    await holdForFaultInjection(deps.faults?.evaluate ?? 0);
    const dir = projectPaths(subtask.project).subtaskDir(subtask.subtaskId);
    const submission = path.join(dir, 'submission');
    rmSync(submission, { recursive: true, force: true });
    restoreSnapshot(subtask.project.resultsDir, args.snapshot.files, submission, 'outputs/');
    const criteria = project.evaluator.criteria.checkpoints[subtask.subtaskId] ?? [];
    const outputs = args.snapshot.files.filter((f) => f.path.startsWith('outputs/')).map((f) => ({ ...f, path: f.path.slice('outputs/'.length) }));
    const verdicts = await evaluateCriteria({
      criteria: criteria.map((c): CriterionToJudge => ({ criterionId: c.id, text: c.text, weight: c.weight, fatal: c.fatal, dimension: c.dimension, target: null, check: c.check })),
      outputsDir: submission, outputs, evidence: deps.evidence, judge: subtask.project.judge, prior: new Map(), sources: new Map(),
      judgeCriteria: deps.judgeCriteria, request: subtaskOf(project, subtask.subtaskId).instructions,
      contextId: `${project.spec.id}/${subtask.subtaskId}`, resultsDir: subtask.project.resultsDir,
    });
    const result = scoreVerdicts(verdicts, new Map(criteria.map((c) => [c.id, c.dependsOn])));
    writeJsonAtomic(path.join(dir, 'evaluation.json'), result);
    return result;
  };

  return {
    async prepareProjectWorkspace(input: ProjectTrialInput): Promise<{ stages: { id: string; subtasks: string[] }[] }> {
      const project = projectOf(input);
      const p = projectPaths(input);
      if (!existsSync(p.preparedMarker)) {
        rmSync(p.workDir, { recursive: true, force: true });
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
      const spec = subtaskOf(project, subtask.subtaskId);
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
          ASSAY_PROJECT_ID: project.spec.id, ASSAY_SUBTASK_ID: spec.id, ASSAY_SUBTASK_INDEX: String(subtask.index),
          ASSAY_TRIAL: String(subtask.project.trial),
        },
        labels: {
          'assay.job': subtask.project.jobId, 'assay.system': subtask.project.system.id, 'assay.project': project.spec.id,
          'assay.subtask': spec.id, 'assay.trial': String(subtask.project.trial), 'assay.role': 'agent',
        },
        limits: subtask.project.limits,
        resources: subtask.project.resources,
      });
    },

    /** Preserve the whole workspace at submission. Idempotent: the first snapshot stands. */
    async snapshotCheckpoint(args: { subtask: SubtaskInput }): Promise<Snapshot> {
      const file = path.join(projectPaths(args.subtask.project).subtaskDir(args.subtask.subtaskId), 'checkpoint.json');
      if (existsSync(file)) return readJson<Snapshot>(file);
      await holdForFaultInjection(deps.faults?.snapshot ?? 0);
      const snap = snapshotWorkspace(args.subtask.project.resultsDir, projectPaths(args.subtask.project).workspace);
      writeJsonAtomic(file, snap);
      return snap;
    },

    /** Judge a checkpoint by its own criteria, on the preserved snapshot (not the live workspace). */
    async evaluateCheckpoint(args: { subtask: SubtaskInput; snapshot: Snapshot }): Promise<CriteriaEvaluation> {
      return withHeartbeat('evaluating checkpoint', () => evaluateCheckpoint(args));
    },

    /** Evaluation failed after its retries: keep the checkpoint, mark every criterion unjudged. */
    async markCheckpointUnjudged(args: { subtask: SubtaskInput; snapshot: Snapshot; error: string }): Promise<CriteriaEvaluation> {
      const project = projectOf(args.subtask.project);
      const criteria = project.evaluator.criteria.checkpoints[args.subtask.subtaskId] ?? [];
      const verdicts = criteria.map((c) => ({
        criterionId: c.id, weight: c.weight, fatal: c.fatal, dimension: c.dimension, target: null, decision: 'unjudged' as const,
        source: 'none' as const, reason: `evaluation failed: ${args.error}`, reusedFrom: null, reuseKey: '',
      }));
      return scoreVerdicts(verdicts, new Map(criteria.map((c) => [c.id, c.dependsOn])));
    },

    async recordCheckpoint(args: { subtask: SubtaskInput; run: AgentRun; snapshot: Snapshot; evaluation: CriteriaEvaluation }): Promise<void> {
      const { run } = args;
      const record: CheckpointRecord = checkpointRecordSchema.parse({
        subtaskId: args.subtask.subtaskId,
        stageId: args.subtask.stageId,
        agent: {
          status: agentStatusOf(run),
          exitCode: run.exitCode, timedOut: run.timedOut, reason: run.reason, startedAt: run.startedAt, endedAt: run.endedAt,
          durationSeconds: run.durationSeconds, containerAttempts: run.containerAttempts,
        },
        usage: run.usage,
        snapshot: args.snapshot,
        verdicts: args.evaluation.verdicts,
        score: args.evaluation.score,
        gateTriggered: args.evaluation.gateTriggered,
        unjudged: args.evaluation.unjudged,
      });
      writeJsonAtomic(path.join(projectPaths(args.subtask.project).subtaskDir(args.subtask.subtaskId), 'checkpoint-record.json'), record);
    },

    /** Final package: artifact quality (source criteria re-applied, reused when unchanged), cross-file, acceptance. */
    async evaluateFinalPackage(args: { project: ProjectTrialInput }): Promise<CriteriaEvaluation & { packageFiles: Snapshot['files'] }> {
      const project = projectOf(args.project);
      const p = projectPaths(args.project);
      const checkpoints = allSubtasks(project).map((id) => readJson<CheckpointRecord>(path.join(p.subtaskDir(id), 'checkpoint-record.json')));
      const last = checkpoints.at(-1);
      if (!last) throw new Error(`project "${project.spec.id}" has no checkpoint to evaluate`);
      const finalDir = path.join(p.finalDir, 'package');
      rmSync(finalDir, { recursive: true, force: true });
      restoreSnapshot(args.project.resultsDir, last.snapshot.files, finalDir, 'outputs/');
      const outputs = last.snapshot.files.filter((f) => f.path.startsWith('outputs/')).map((f) => ({ ...f, path: f.path.slice('outputs/'.length) }));
      const prior = new Map<string, CriterionVerdict>();
      for (const cp of checkpoints) for (const v of cp.verdicts) prior.set(`${cp.subtaskId}/${v.criterionId}`, v);
      const sources = new Map<string, { text: string; check?: typeof project.evaluator.criteria.final[number]['check'] }>();
      for (const [sub, list] of Object.entries(project.evaluator.criteria.checkpoints)) for (const c of list) sources.set(`${sub}/${c.id}`, { text: c.text, check: c.check });
      const criteria = project.evaluator.criteria.final;
      const verdicts = await evaluateCriteria({
        criteria: criteria.map((c): CriterionToJudge => ({ criterionId: c.id, text: c.text, weight: c.weight, fatal: c.fatal, dimension: c.dimension, target: c.target, check: c.check, reuses: c.reuses })),
        outputsDir: finalDir, outputs, evidence: deps.evidence, judge: args.project.judge, prior, sources,
        judgeCriteria: deps.judgeCriteria, request: `${project.spec.objective}\n\nFinal package: ${project.spec.finalPackage.map((d) => d.path).join(', ')}`,
        contextId: `${project.spec.id}/final`, resultsDir: args.project.resultsDir,
      });
      const result = { ...scoreVerdicts(verdicts, new Map(criteria.map((c) => [c.id, c.dependsOn]))), packageFiles: outputs.filter((f) => project.spec.finalPackage.some((d) => d.path === f.path)) };
      writeJsonAtomic(path.join(p.finalDir, 'evaluation.json'), result);
      return result;
    },

    async recordProject(args: { project: ProjectTrialInput; injected: { name: string; beforeSubtask: string | null }[] }): Promise<ProjectRecord> {
      const project = projectOf(args.project);
      const p = projectPaths(args.project);
      const checkpoints = allSubtasks(project).map((id) => readJson<CheckpointRecord>(path.join(p.subtaskDir(id), 'checkpoint-record.json')));
      const final = readJson<CriteriaEvaluation & { packageFiles: Snapshot['files'] }>(path.join(p.finalDir, 'evaluation.json'));
      const finalCriteria = project.evaluator.criteria.final;
      const scored: ScoredCriterion[] = final.verdicts.map((v) => ({
        id: v.criterionId, weight: v.weight, fatal: v.fatal, dependsOn: finalCriteria.find((c) => c.id === v.criterionId)?.dependsOn ?? [],
        target: v.target ?? undefined, dimension: v.dimension, h: v.decision === 'unjudged' ? null : v.decision === 'satisfied' ? 1 : 0,
      }));
      const scores = checkpoints.map((c) => c.score);
      const known = scores.filter((s): s is number => s !== null);
      const usages = checkpoints.map((c) => c.usage);
      const tokens = usages.every((u) => u !== null)
        ? { input: usages.reduce((a, u) => a + (u?.inputTokens ?? 0), 0), output: usages.reduce((a, u) => a + (u?.outputTokens ?? 0), 0) }
        : null;
      const record: ProjectRecord = projectRecordSchema.parse({
        schema: PROJECT_RECORD_SCHEMA,
        jobId: args.project.jobId,
        benchmark: { id: args.project.benchmark.id, version: args.project.benchmark.version },
        system: { id: args.project.system.id, harness: args.project.system.harness, model: args.project.system.model ?? null },
        project: { id: project.spec.id, subtasks: checkpoints.length },
        trial: args.project.trial,
        checkpoints,
        process: {
          score: known.length === scores.length ? known.reduce((a, b) => a + b, 0) / known.length : null,
          passRate: known.length === scores.length ? known.filter((s) => s >= 90).length / known.length : null,
        },
        final: {
          verdicts: final.verdicts, score: final.score, raw: final.raw, gateTriggered: final.gateTriggered, gates: final.gates,
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
        injectedFeedback: args.injected,
        recordedAt: new Date().toISOString(),
      });
      writeJsonAtomic(p.record, record);
      return record;
    },
  };
}

export type ProjectActivities = ReturnType<typeof createProjectActivities>;

function allSubtasks(project: LoadedProject): string[] {
  return project.spec.stages.flatMap((s) => s.subtasks.map((t) => t.id));
}

export function renderSubtaskInstruction(project: LoadedProject, subtask: LoadedProject['spec']['stages'][number]['subtasks'][number]): string {
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
