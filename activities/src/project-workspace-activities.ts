// Activities of a project's persistent workspace: prepare it, release each stage's materials
// and feedback, run the agent of one subtask.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { copyBenchmarkFile, type LoadedProject } from '@assay/benchmark';
import type { FeedbackInjection, ProjectTrialInput, SubtaskInput } from '@assay/core';
import { HOST_FILE, STOPPED_FILE, STORAGE_FILE, agentResultKey } from '@assay/results';
import { holdForFaultInjection } from './heartbeat.js';
import type { ProjectContext } from './project-context.js';
import { subtaskSpec } from './project-evaluation.js';
import type { Placement } from './host-identity.js';
import { restoreProjectWorkspace } from './restore-project-workspace.js';
import { runHarness, type AgentRun } from './run-harness.js';
import { emptyDir, mountWorkVolume } from './workspace-volume.js';
import { trialLabels } from './trial-labels.js';

export function createProjectWorkspaceActivities(ctx: ProjectContext) {
  return {
    /**
     * The project's workspace on this host, idempotent for one placement. Another placement (a move
     * here, a new run) starts from the newest preserved checkpoint; `restoredFrom` names it.
     */
    prepareProjectWorkspace: (input: ProjectTrialInput, placement?: Placement) =>
      prepareProjectWorkspace(ctx, input, placement),

    /** Copy one stage's materials and feedback into the workspace; later stages stay out of reach. */
    releaseStage: (args: { project: ProjectTrialInput; stageId: string }) => releaseStage(ctx, args),

    releaseFeedback: (args: { project: ProjectTrialInput; feedback: FeedbackInjection[] }) =>
      releaseFeedback(ctx, args),

    /** The agent was stopped before it finished: noted beside the subtask, set aside when the workspace is made again. */
    noteStoppedAgent: (args: { subtask: SubtaskInput; reason: string }) => noteStoppedAgent(ctx, args),

    runSubtaskAgent: (args: { subtask: SubtaskInput; workflowId: string }) => runSubtaskAgent(ctx, args),
  };
}

interface PreparedProject {
  stages: { id: string; subtasks: string[] }[];
  /** The host holding the workspace: the project's workspace activities go to its queue. */
  hostId?: string;
  /** The checkpoint whose snapshot this workspace was restored from (null: it started empty). */
  restoredFrom?: string | null;
}

async function prepareProjectWorkspace(
  ctx: ProjectContext,
  input: ProjectTrialInput,
  placement?: Placement,
): Promise<PreparedProject> {
  const { host } = ctx;
  const project = ctx.projectOf(input);
  const p = ctx.pathsOf(input);
  const cap = mountWorkVolume(p.workDir, input.resources.storageGiB);
  await ctx.storeOf(input).putJson(`${ctx.projectKey(input)}/${STORAGE_FILE}`, cap);
  const stages = project.spec.stages.map((s) => ({ id: s.id, subtasks: s.subtasks.map((t) => t.id) }));
  const marker = existsSync(p.preparedMarker) ? readFileSync(p.preparedMarker, 'utf8') : null;
  if (marker !== null && (placement === undefined || marker.startsWith(`${placement.key}\n`)))
    return { stages, hostId: host.id, restoredFrom: marker.split('\n')[1] || null };
  emptyDir(p.workDir);
  mkdirSync(path.join(p.workspace, 'inputs'), { recursive: true });
  mkdirSync(path.join(p.workspace, 'outputs'), { recursive: true });
  mkdirSync(p.instructionDir, { recursive: true });
  const restoredFrom = placement ? await restoreProjectWorkspace(ctx, input, project, p.workspace) : null;
  writeFileSync(p.preparedMarker, `${placement?.key ?? new Date().toISOString()}\n${restoredFrom ?? ''}`);
  return { stages, hostId: host.id, restoredFrom };
}

async function releaseStage(
  ctx: ProjectContext,
  args: { project: ProjectTrialInput; stageId: string },
): Promise<string[]> {
  const project = ctx.projectOf(args.project);
  await holdForFaultInjection(ctx.deps.faults?.release ?? 0);
  const stage = project.spec.stages.find((s) => s.id === args.stageId);
  if (!stage) throw new Error(`project "${project.spec.id}" has no stage "${args.stageId}"`);
  const inputs = path.join(ctx.pathsOf(args.project).workspace, 'inputs');
  return stage.releases.map((r) => {
    const to = r.to ?? path.basename(r.path);
    mkdirSync(path.dirname(path.join(inputs, to)), { recursive: true });
    // Not through a link, and only a regular file (validation refuses the rest too).
    copyBenchmarkFile(path.join(project.releasesDir, r.path), path.join(inputs, to), args.project.benchmark.root);
    return to;
  });
}

async function releaseFeedback(
  ctx: ProjectContext,
  args: { project: ProjectTrialInput; feedback: FeedbackInjection[] },
): Promise<void> {
  const dir = path.join(ctx.pathsOf(args.project).workspace, 'inputs', 'feedback');
  mkdirSync(dir, { recursive: true });
  for (const f of args.feedback) writeFileSync(path.join(dir, path.basename(f.name)), f.text);
}

async function noteStoppedAgent(ctx: ProjectContext, args: { subtask: SubtaskInput; reason: string }): Promise<void> {
  const { subtask } = args;
  const key = ctx.subtaskKey(subtask.project, subtask.subtaskId);
  // host.txt already names the agent's host; this may run on any.
  await ctx.storeOf(subtask.project).putJson(`${key}/${STOPPED_FILE}`, {
    reason: args.reason,
    at: new Date().toISOString(),
  });
}

async function runSubtaskAgent(
  ctx: ProjectContext,
  args: { subtask: SubtaskInput; workflowId: string },
): Promise<AgentRun> {
  const { deps, host, pathsOf, projectOf, storeOf, subtaskKey } = ctx;
  const { subtask } = args;
  const project = projectOf(subtask.project);
  const spec = subtaskSpec(project, subtask.subtaskId);
  const p = pathsOf(subtask.project);
  writeFileSync(path.join(p.instructionDir, 'instruction.md'), renderSubtaskInstruction(project, spec));
  // Which host's container runs this agent, for the checkpoint record (kept when it already ran).
  const store = storeOf(subtask.project);
  const key = subtaskKey(subtask.project, subtask.subtaskId);
  if (!(await store.has(agentResultKey(key)))) await store.putText(`${key}/${HOST_FILE}`, host.id);
  const moves = subtask.moves ?? 0;
  return runHarness(deps, {
    workflowId: args.workflowId,
    jobId: subtask.project.jobId,
    store: storeOf(subtask.project),
    resultKey: subtaskKey(subtask.project, subtask.subtaskId),
    stateDir: p.subtaskDir(subtask.subtaskId),
    // A fresh container after a move: one left by the agent on the lost host is not this attempt's.
    ...(moves > 0 ? { containerKey: `${args.workflowId}:move-${moves}` } : {}),
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
    labels: trialLabels(
      {
        jobId: subtask.project.jobId,
        system: subtask.project.system,
        project: project.spec.id,
        subtask: spec.id,
        trial: subtask.project.trial,
      },
      'agent',
    ),
    limits: subtask.project.limits,
    resources: subtask.project.resources,
  });
}

function renderSubtaskInstruction(
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
