// A task from a Harbor task folder inside a trial: instruction.md as written, the agent in the task's own
// image (with its sidecars), the verifier's reward as the score, and the snapshot images and sidecars
// dropped once the record is written. A multi-step task ([[steps]]) runs its steps one after the other in
// the trial's host activity, as Harbor's multi-step Trial does.
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type Docker from 'dockerode';
import type { HarborLoadedTask, HarborTask } from '@assay/benchmark';
import {
  SUCCESS_THRESHOLD,
  runHarborSteps,
  type StepsOutcome,
  trialRecordSchema,
  type HarborStepRecord,
  type HarborStepsPlan,
  type HarborVerifierRun,
  type Score,
  type TrialInput,
  type TrialRecord,
} from '@assay/core';
import { STEPS_DIR, agentResultKey, openResultsStore, stepDirKey, trialDirKey } from '@assay/results';
import { assessFormatCompliance } from '../evaluate-deliverables.js';
import type { NotifyThrottled } from '../forward-throttles.js';
import type { AgentRun } from '../run-harness.js';
import type { Evaluation } from '../task-evaluation.js';
import { trialPaths } from '../trial-paths.js';
import { LABEL_WORKFLOW, type TemporalServerRef } from '../run-agent-container.js';
import type { TaskRuntime, TaskRuntimeDeps } from '../task-runtime.js';
import { trialLabels } from '../trial-labels.js';
import { withHeartbeat } from '../heartbeat.js';
import { harborSettings } from './harbor-settings.js';
import { harborTaskForStep, stepBaseImage, stepOf, stepResumes, stepRunId } from './harbor-step.js';
import { removeSidecars } from './harbor-sidecars.js';
import { SNAPSHOT_REPO, harborRunKey, runHarborAgent } from './run-harbor-agent.js';
import { runHarborVerifier, type HarborVerifierImages } from './run-harbor-verifier.js';

export function createHarborTaskRuntime(task: HarborLoadedTask, trial: TrialInput, deps: TaskRuntimeDeps): TaskRuntime {
  const on = () => ({
    trial,
    task,
    workflowId: deps.workflowId(),
    server: deps.temporalServer,
    workRoot: deps.host.workRoot,
  });
  const { harborSteps } = stepsPlanOf(task);
  // A multi-step task's steps run once per runtime (one activity): runAgent runs them, evaluate reads them.
  let stepsRun: Promise<StepsOutcome<Evaluation>> | null = null;
  const runSteps = (plan: HarborStepsPlan, containerKey: string | undefined) =>
    (stepsRun ??= runAllSteps(deps, { ...on(), ...(containerKey ? { containerKey } : {}) }, plan));
  return {
    begin: () => (harborSteps ? { agentRounds: harborSteps.steps.length } : {}),

    prepare({ workspace, instructionDir }) {
      // No inputs: a Harbor task's files are in its image.
      mkdirSync(path.join(workspace, 'inputs'));
      writeHarborInstruction(task, instructionDir);
    },

    async runAgent(args) {
      const key = args.containerKey ? { containerKey: args.containerKey } : {};
      const run = { ...on(), workflowId: args.workflowId, ...key, notifyThrottled: deps.notifyThrottled };
      if (!harborSteps) return runHarborTrialAgent(deps.docker, run);
      return { ...(await runSteps(harborSteps, args.containerKey)).run, ...key };
    },

    async evaluate(args) {
      const { containerKey } = args.run;
      if (!harborSteps) return evaluateHarborTrial(deps.docker, { ...on(), ...(containerKey ? { containerKey } : {}) });
      const ran = await runSteps(harborSteps, containerKey);
      return { ...(ran.last ?? notVerifiedEvaluation(task)), verifier: ran.verifier, steps: ran.steps };
    },

    record(assembled, { verifier, steps }) {
      if (!verifier) throw new Error(`task ${task.spec.id}: a Harbor trial's evaluation holds no verifier run`);
      return harborRecord(assembled, { trial, task, verifier, ...(steps ? { steps } : {}) });
    },

    release: () => removeHarborSnapshot(deps.docker, deps.workflowId()),

    // The agent's container is committed as the verifier's snapshot; it goes on release.
    leaveAgent: () => undefined,
  };
}

/**
 * Every step of a multi-step task in one activity, by core's rules. Each step's agent and verifier keep
 * their results in the store, so a retried activity (a worker killed during step k) gets the finished
 * steps' back without running them and re-attaches to step k's container. The trial's combined run is
 * kept as its agent result: a host lost after the record finds it there (findTrialRecordOf).
 */
async function runAllSteps(
  deps: TaskRuntimeDeps,
  on: HarborRunArgs,
  plan: HarborStepsPlan,
): Promise<StepsOutcome<Evaluation>> {
  const ran = await runHarborSteps(plan, {
    agent: (index) => runHarborStepAgent(deps.docker, { ...on, notifyThrottled: deps.notifyThrottled }, index),
    verifier: (index) => withHeartbeat('evaluating', () => evaluateHarborStep(deps.docker, on, index)),
  });
  const { store, resultKey } = runArgs(on);
  const key = on.containerKey ? { containerKey: on.containerKey } : {};
  await store.putJson(agentResultKey(resultKey), { ...ran.run, ...key });
  return ran;
}

/** A multi-step trial whose first step's setup failed: no verifier ran, no rubric, no deliverables. */
function notVerifiedEvaluation(task: HarborLoadedTask): Evaluation {
  return { verdicts: [], formatCompliance: assessFormatCompliance(task.spec, []) };
}

/** instruction.md byte for byte (assay's own tasks get a rendered instruction instead); a step's in its own folder. */
function writeHarborInstruction(task: HarborLoadedTask, instructionDir: string): void {
  const file = task.harbor.steps?.[0]?.instructionFile ?? task.harbor.instructionFile;
  copyFileSync(file, path.join(instructionDir, 'instruction.md'));
}

interface HarborRunArgs {
  trial: TrialInput;
  task: HarborLoadedTask;
  workflowId: string;
  server?: TemporalServerRef;
  /** The worker's work root (`assay worker --work-root`), as for every trial's work folders. */
  workRoot?: string;
  /** The agent's throttled model answers go to the trial's job (back-pressure). */
  notifyThrottled?: NotifyThrottled;
  /** Set once the trial has moved host: this attempt's containers, snapshots and results are its own. */
  containerKey?: string;
}

const runArgs = ({ trial, task, workflowId, workRoot, containerKey }: HarborRunArgs) => {
  const p = trialPaths(trial, workRoot);
  const store = openResultsStore(trial.resultsDir);
  const resultKey = trialDirKey(trial.system.id, trial.taskId, trial.trial);
  const harborTask = { id: task.spec.id, harbor: task.harbor };
  return {
    trial,
    task: harborTask,
    workflowId,
    store,
    resultKey,
    scratchDir: p.dir,
    workDir: p.workDir,
    instructionDir: p.instructionDir,
    ...(containerKey ? { containerKey } : {}),
  };
};

/** Step `index`'s run: the task with its overrides, its files under steps/<name>/ beside the record. */
function stepArgs(args: HarborRunArgs, index: number) {
  const base = runArgs(args);
  const step = stepOf(args.task.harbor, index);
  const instructionDir = path.join(base.workDir, 'steps', step.name);
  mkdirSync(instructionDir, { recursive: true });
  copyFileSync(step.instructionFile, path.join(instructionDir, 'instruction.md'));
  return {
    ...base,
    task: { id: base.task.id, harbor: harborTaskForStep(args.task.harbor, step) },
    resultKey: stepDirKey(base.resultKey, step.name),
    scratchDir: path.join(base.scratchDir, STEPS_DIR, step.name),
    instructionDir,
    step,
    runId: stepRunId(harborRunKey(args), index),
  };
}

function runHarborTrialAgent(docker: Docker, args: HarborRunArgs): Promise<AgentRun> {
  return runHarborAgent(docker, {
    ...runArgs(args),
    // The server's labels too: a worker's start-up reaper removes only its own server's containers.
    labels: trialLabels(args.trial, 'agent', args.server),
    ...(args.notifyThrottled ? { notifyThrottled: args.notifyThrottled } : {}),
  });
}

/** A multi-step task's steps in order (nothing for a single-step task). */
function stepsPlanOf(task: HarborLoadedTask): { harborSteps?: HarborStepsPlan } {
  const steps = task.harbor.steps;
  if (!steps) return {};
  const strategy = task.harbor.config.multiStepRewardStrategy ?? 'mean';
  return { harborSteps: { strategy, steps: steps.map((s) => ({ name: s.name, minReward: s.minReward })) } };
}

/**
 * Step `index` (1-based) of a multi-step task: its agent from the previous step's snapshot (the task image first);
 * under resume_trajectory its CLI continues the previous step's session.
 */
function runHarborStepAgent(docker: Docker, args: HarborRunArgs, index: number): Promise<AgentRun> {
  const { step, runId, ...rest } = stepArgs(args, index);
  const { trial } = args;
  const previous = stepResumes(trial.system, index) ? stepOf(args.task.harbor, index - 1) : null;
  const trialKey = trialDirKey(trial.system.id, trial.taskId, trial.trial);
  const resumeFrom = previous && { name: previous.name, resultKey: stepDirKey(trialKey, previous.name) };
  const baseImage = stepBaseImage(harborRunKey(args), index);
  return runHarborAgent(docker, {
    ...rest,
    labels: { ...trialLabels(trial, 'agent', args.server), 'assay.step': step.name },
    step: { runId, baseImage, name: step.name, workdirDir: step.workdirDir, ...(resumeFrom ? { resumeFrom } : {}) },
    ...(args.notifyThrottled ? { notifyThrottled: args.notifyThrottled } : {}),
  });
}

/** Step `index`'s verifier on that step's snapshot (the agent's run under the same key), with tests/ and the step's own tests. */
async function evaluateHarborStep(docker: Docker, args: HarborRunArgs, index: number): Promise<Evaluation> {
  const { step, runId, ...rest } = stepArgs(args, index);
  const { run, images } = await runHarborVerifier(docker, {
    ...rest,
    labels: { ...trialLabels(args.trial, 'verifier', args.server), 'assay.step': step.name },
    step: { runId, testsDirs: step.testsDirs, name: step.name },
  });
  return verifierEvaluation(args.task, run, images);
}

/** The verifier's run as the trial's evaluation: no rubric verdicts, the reward carried to the record. */
async function evaluateHarborTrial(docker: Docker, args: HarborRunArgs): Promise<Evaluation> {
  const { run, images } = await runHarborVerifier(docker, {
    ...runArgs(args),
    labels: trialLabels(args.trial, 'verifier', args.server),
  });
  return verifierEvaluation(args.task, run, images);
}

/** The verifier's run as an evaluation: no rubric verdicts, the reward carried to the record, its images too. */
function verifierEvaluation(
  task: HarborLoadedTask,
  verifier: HarborVerifierRun,
  images: HarborVerifierImages,
): Evaluation {
  const harborImages = Object.keys(images).length > 0 ? { harborImages: images } : {};
  return { verdicts: [], formatCompliance: assessFormatCompliance(task.spec, []), verifier, ...harborImages };
}

/** The reward Harbor scores, as a 0–100 score whose source is the verifier; no reward: no score (never 0). */
export function scoreOfReward(run: HarborVerifierRun): Score {
  if (run.reward === null) return { value: null, decided: null, coverage: 0, success: null, source: 'verifier' };
  const value = Math.min(1, Math.max(0, run.reward)) * 100;
  return { value, decided: value, coverage: 1, success: value >= SUCCESS_THRESHOLD, source: 'verifier' };
}

/** The record of a Harbor trial: the verifier's rewards and score (a multi-step task's: its steps'); the storage cap. */
function harborRecord(
  record: TrialRecord,
  args: { trial: TrialInput; task: HarborLoadedTask; verifier: HarborVerifierRun; steps?: HarborStepRecord[] },
): TrialRecord {
  const { storageGiB } = harborSettings(args.task.harbor, args.trial.limits, args.trial.resources);
  return trialRecordSchema.parse({
    ...record,
    verifier: args.verifier,
    score: scoreOfReward(args.verifier),
    ...multiStepOf(args.task.harbor, args.steps),
    storage: {
      limitGiB: storageGiB,
      enforced: false,
      note: "a Harbor task's agent writes its image's own filesystem, which the work volume's cap does not cover",
    },
  });
}

function multiStepOf(task: HarborTask, steps: HarborStepRecord[] | undefined): Partial<TrialRecord> {
  if (!task.steps || !steps) return {};
  const strategy = task.config.multiStepRewardStrategy ?? 'mean';
  return { steps, multiStep: { strategy, declared: task.steps.map((s) => s.name) } };
}

/**
 * Snapshot images are the verifier's (and the next step's) input only, and the sidecars serve the agent and
 * verifier only: once the record is written they go. Found by the workflow's label (a snapshot keeps its
 * container's), so every attempt's go: one taken before a move has another name.
 */
async function removeHarborSnapshot(docker: Docker, workflowId: string): Promise<void> {
  await removeSidecars(docker, workflowId);
  const images = await docker.listImages({
    filters: { label: [`${LABEL_WORKFLOW}=${workflowId}`], reference: [SNAPSHOT_REPO] },
  });
  for (const image of images.flatMap((i) => i.RepoTags ?? []))
    await docker
      .getImage(image)
      .remove({ force: true })
      .catch((err: { statusCode?: number }) => {
        if (err.statusCode !== 404) throw err;
      });
}
