// Activities of single-task trials, built over injected clients (Docker, evidence,
// judge) so that only the worker constructs real ones.
import { existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Context } from '@temporalio/activity';
import type Docker from 'dockerode';
import { copyBenchmarkTree, type LoadedTask } from '@assay/benchmark';
import type { AssayVersion, DeliverableEntry, HarborStepsPlan, TrialInput, TrialRecord } from '@assay/core';
import {
  STORAGE_FILE,
  agentResultKey,
  listRegularFiles,
  openResultsStore,
  stepDirKey,
  storeFile,
  trialDirKey,
  trialRecordKey,
  writeTrialRecord,
} from '@assay/results';
import { readAgentRuns } from './agent-provenance.js';
import { assembleTrialRecord } from './assemble-trial-record.js';
import type { EvidenceTools } from './evaluate-deliverables.js';
import type { JudgeFactory } from './evaluate-items.js';
import { createBenchmarkLookup } from './load-benchmark-once.js';
import { evaluateTaskSubmission, type Evaluation } from './task-evaluation.js';
import type { NotifyThrottled } from './forward-throttles.js';
import { isThisAttempt, runHarness, type AgentRun } from './run-harness.js';
import { removeContainerSoon, type TemporalServerRef } from './run-agent-container.js';
import {
  emptyDir,
  mountWorkVolumeAsync,
  unmountWorkVolumeLater,
  volumePoolDir,
  type StorageCap,
} from './workspace-volume.js';
import { markPhase, startPhases } from './mark-phase.js';
import { trialPaths } from './trial-paths.js';
import { holdForFaultInjection, withHeartbeat } from './heartbeat.js';
import * as harbor from './harbor/harbor-trial.js';
import { LOCAL_HOST, type HostIdentity, type HostRecord, type Placement } from './host-identity.js';

export interface PreparedWorkspace {
  workspace: string;
  instructionDir: string;
  /** The host holding this workspace: the trial's later activities go to its queue. */
  hostId?: string;
  /** A multi-step Harbor task: its steps in order, which the trial workflow runs one by one. */
  harborSteps?: HarborStepsPlan;
}

/** What runAgent is given: the trial, its workspace, and the key naming its container. */
interface AgentArgs {
  trial: TrialInput;
  workspace: PreparedWorkspace;
  workflowId: string;
  containerKey?: string;
  /** A multi-step Harbor task's step (1-based). */
  step?: number;
}

export interface TrialActivityDeps {
  docker: Docker;
  evidence: EvidenceTools;
  images: { scriptedAgent: string };
  /** The worker's Temporal server, labelled on agent containers (see reapContainers). */
  temporalServer?: TemporalServerRef;
  /** The judge for a job's setup; absent: every item without a decisive check stays unjudged. */
  judgeFor?: JudgeFactory;
  log?: (line: string) => void;
  /** Fault injection for chaos tests: step name -> hold in ms (see parseFaultDelays). */
  faults?: Record<string, number>;
  /** This worker's host (default: one machine, work folders in the results folder). */
  host?: HostIdentity;
  /** Tells a job its agents' model endpoint answered 429 / overloaded (back-pressure). */
  notifyThrottled?: NotifyThrottled;
  /** The assay this worker runs, read once at its start (see readAssayVersion): every record names it. */
  assay?: AssayVersion;
}

/** Largest single deliverable we copy into the store; bigger files are noted, not copied. */
const MAX_DELIVERABLE_BYTES = 512 * 1024 ** 2;

export function createTrialActivities(deps: TrialActivityDeps) {
  const benchmarks = createBenchmarkLookup();
  const taskOf = (trial: TrialInput): LoadedTask => benchmarks.task(trial.benchmark.root, trial.taskId);
  const host = deps.host ?? LOCAL_HOST;
  const pathsOf = (trial: TrialInput) => trialPaths(trial, host.workRoot);
  const logUnmountFailure = (err: unknown) => deps.log?.(`could not unmount a work volume: ${String(err)}`);

  const evaluate = async (args: {
    trial: TrialInput;
    workspace: PreparedWorkspace;
    deliverables: DeliverableEntry[];
    step?: number;
    /** A Harbor trial's agent run (finishTrial), or its key after a move: the verifier checks that run's snapshot. */
    run?: AgentRun;
    containerKey?: string;
  }): Promise<Evaluation> => {
    await holdForFaultInjection(deps.faults?.evaluate ?? 0);
    const task = taskOf(args.trial);
    if (harbor.isHarborTask(task)) {
      const run = { trial: args.trial, task, workflowId: workflowIdNow(), server: deps.temporalServer };
      const agent = {
        ...(args.run ? { run: args.run } : {}),
        ...(args.containerKey ? { containerKey: args.containerKey } : {}),
      };
      const on = { ...run, workRoot: host.workRoot, ...agent };
      return args.step === undefined
        ? harbor.evaluateHarborTrial(deps.docker, on)
        : harbor.evaluateHarborStep(deps.docker, on, args.step);
    }
    const judge = deps.judgeFor?.(args.trial.judge, { resultsDir: args.trial.resultsDir }) ?? null;
    return evaluateTaskSubmission(
      { evidence: deps.evidence, judge },
      {
        task: taskOf(args.trial),
        outputsDir: path.join(args.workspace.workspace, 'outputs'),
        deliverables: args.deliverables,
        judgeSetup: args.trial.judge,
      },
    );
  };

  const collect = async (args: { trial: TrialInput; workspace: PreparedWorkspace }): Promise<DeliverableEntry[]> => {
    const outputs = path.join(args.workspace.workspace, 'outputs');
    const store = openResultsStore(args.trial.resultsDir);
    const entries: DeliverableEntry[] = [];
    for (const rel of await listRegularFiles(outputs)) {
      const abs = path.join(outputs, rel);
      const st = lstatSync(abs);
      // A hard link may point at a file outside the workspace: never copy what it names.
      if (st.size > MAX_DELIVERABLE_BYTES || st.nlink > 1) continue;
      const { sha256, size } = await storeFile(store, abs);
      entries.push({ path: rel, sha256, size, detectedFormat: await deps.evidence.detectFormat(abs) });
    }
    return entries;
  };

  /** Drop what the trial held on this host: a Harbor trial's snapshot image, the work volume. */
  const release = async (trial: TrialInput): Promise<void> => {
    const task = taskOf(trial);
    if (harbor.isHarborTask(task)) await harbor.removeHarborSnapshot(deps.docker, workflowIdNow());
    unmountWorkVolumeLater(pathsOf(trial).workDir, logUnmountFailure);
  };

  const record = async (args: {
    trial: TrialInput;
    run: AgentRun;
    deliverables: DeliverableEntry[];
    evaluation: Evaluation;
    placement?: HostRecord;
  }): Promise<TrialRecord> => {
    const store = openResultsStore(args.trial.resultsDir);
    const storage = (await store.getJson(storageKey(args.trial))) as StorageCap | null;
    const task = taskOf(args.trial);
    const { verifier, steps } = args.evaluation;
    // A multi-step task's run sums its steps': their own results name their images and models.
    const dir = trialDirKey(args.trial.system.id, args.trial.taskId, args.trial.trial);
    const agentRuns = steps
      ? await readAgentRuns(
          store,
          steps.map((s) => stepDirKey(dir, s.name)),
        )
      : undefined;
    const assembled = assembleTrialRecord({
      ...args,
      task,
      storage: storage ?? undefined,
      ...(deps.assay ? { assay: deps.assay } : {}),
      ...(agentRuns ? { agentRuns } : {}),
    });
    const isHarbor = verifier !== undefined && harbor.isHarborTask(task);
    const record = isHarbor
      ? harbor.harborRecord(assembled, { trial: args.trial, task, verifier, ...(steps ? { steps } : {}) })
      : assembled;
    await writeTrialRecord(store, record);
    if (isHarbor) await harbor.removeHarborSnapshot(deps.docker, workflowIdNow());
    unmountWorkVolumeLater(pathsOf(args.trial).workDir, logUnmountFailure);
    return record;
  };

  /** The trial's record if this attempt wrote it: the same agent run (an archived run's record is another's). */
  const recordOf = async (trial: TrialInput, run: AgentRun): Promise<TrialRecord | null> => {
    const key = trialRecordKey(trial.system.id, trial.taskId, trial.trial);
    const found = (await openResultsStore(trial.resultsDir).getJson(key)) as TrialRecord | null;
    const same = found?.agent.startedAt === run.startedAt && found.agent.endedAt === run.endedAt;
    return found && same ? found : null;
  };

  const runAgent = async (args: AgentArgs): Promise<AgentRun> => {
    const { trial } = args;
    const task = taskOf(trial);
    if (harbor.isHarborTask(task)) {
      const run = { ...args, task, server: deps.temporalServer, workRoot: host.workRoot };
      const on = { ...run, notifyThrottled: deps.notifyThrottled };
      return args.step === undefined
        ? harbor.runHarborTrialAgent(deps.docker, on)
        : harbor.runHarborStepAgent(deps.docker, on, args.step);
    }
    return runHarness(deps, {
      workflowId: args.workflowId,
      jobId: trial.jobId,
      store: openResultsStore(trial.resultsDir),
      resultKey: trialDirKey(trial.system.id, trial.taskId, trial.trial),
      stateDir: pathsOf(trial).dir,
      ...(args.containerKey ? { containerKey: args.containerKey } : {}),
      system: trial.system,
      evaluatorDir: path.join(task.dir, 'evaluator'),
      workspace: args.workspace.workspace,
      instructionDir: args.workspace.instructionDir,
      env: { ASSAY_TASK_ID: trial.taskId, ASSAY_TRIAL: String(trial.trial) },
      labels: {
        'assay.job': trial.jobId,
        'assay.system': trial.system.id,
        'assay.task': trial.taskId,
        'assay.trial': String(trial.trial),
        'assay.role': 'agent',
      },
      limits: trial.limits,
      resources: trial.resources,
    });
  };

  const finishTrial = async (args: {
    trial: TrialInput;
    workspace: PreparedWorkspace;
    run: AgentRun;
    placement?: HostRecord;
  }): Promise<TrialRecord> => {
    let stage = 'collecting';
    const finish = async () => {
      const written = await recordOf(args.trial, args.run);
      if (written) {
        await release(args.trial);
        return written;
      }
      const deliverables = await collect(args);
      markPhase('finish: collect');
      stage = 'evaluating';
      const evaluation = await evaluate({ ...args, deliverables });
      markPhase('finish: evaluate');
      stage = 'recording';
      const recorded = await record({ ...args, deliverables, evaluation });
      markPhase('finish: record', true);
      return recorded;
    };
    try {
      return await withHeartbeat(() => stage, finish);
    } finally {
      // runAgent left its exited container's removal running; the trial does not wait for it (about
      // 0.2 s at concurrency 4 here). One is started when the agent's worker died before removing it.
      if (!harbor.isHarborTask(taskOf(args.trial)))
        removeContainerSoon(deps.docker, args.run.containerKey ?? workflowIdNow());
    }
  };

  return {
    /**
     * Copy the task's inputs (and nothing evaluator-only) into a fresh workspace on this host.
     * Idempotent for one placement; another placement (a new run, a move) starts clean.
     */
    async prepareWorkspace(trial: TrialInput, placement?: Placement): Promise<PreparedWorkspace> {
      startPhases();
      const p = pathsOf(trial);
      const plan = harbor.stepsPlanOf(taskOf(trial));
      // Parsers warm while the workspace is made and the agent runs, not after the agent on the evaluation's path.
      if (!harbor.isHarborTask(taskOf(trial))) deps.evidence.warm?.();
      const out = { workspace: p.workspace, instructionDir: p.instructionDir, hostId: host.id, ...plan };
      // The cap first: the work folder becomes a fixed-size volume (idempotent).
      await openResultsStore(trial.resultsDir).putJson(
        storageKey(trial),
        await mountWorkVolumeAsync(p.workDir, trial.resources.storageGiB, volumePoolDir()),
      );
      markPhase('prepare: work volume');
      if (isPreparedFor(p.preparedMarker, placement)) return out;
      const { agent } = taskOf(trial);
      emptyDir(p.workDir);
      mkdirSync(path.join(p.workspace, 'outputs'), { recursive: true });
      mkdirSync(p.instructionDir, { recursive: true });
      // Links are never followed: a host file must not land in the agent's workspace (validation refuses them too).
      if (existsSync(agent.inputsDir))
        copyBenchmarkTree(agent.inputsDir, path.join(p.workspace, 'inputs'), trial.benchmark.root);
      else mkdirSync(path.join(p.workspace, 'inputs'));
      const task = taskOf(trial);
      if (harbor.isHarborTask(task)) harbor.writeHarborInstruction(task, p.instructionDir);
      else
        writeFileSync(path.join(p.instructionDir, 'instruction.md'), renderInstruction(agent.request, agent.outputs));
      writeFileSync(p.preparedMarker, placement?.key ?? new Date().toISOString());
      markPhase('prepare: inputs and instruction');
      return out;
    },

    /** Run the harness container; agent failures are results, only infrastructure errors throw. */
    runAgent,

    /** Hash every file in outputs/ into the job's content-addressed store. */
    collectDeliverables: collect,

    async evaluateTrial(args: {
      trial: TrialInput;
      workspace: PreparedWorkspace;
      deliverables: DeliverableEntry[];
      /** A multi-step Harbor task's step (1-based): its verifier. */
      step?: number;
      /** A Harbor trial that moved host: the key its agent ran under. */
      containerKey?: string;
    }): Promise<Evaluation> {
      return withHeartbeat('evaluating', () => evaluate(args));
    },

    /** Write the record, then release this host's work volume (on another host there is none to release). */
    recordTrial: record,

    /**
     * Collect, evaluate and record in one activity on the workspace's host (one round trip instead of
     * three). A retry finds the record this attempt already wrote (the same agent run) and only
     * releases the volume again: after a release the outputs are gone, so it must not collect twice.
     */
    finishTrial,

    /**
     * The agent, then collect, evaluate and record, in one activity on the workspace's host: one
     * round trip through the server instead of two. A retry returns the agent run this trial already
     * stored (runHarness) instead of starting a second agent, and then finishes as finishTrial does.
     */
    async runAgentAndFinish(args: AgentArgs & { placement?: HostRecord }): Promise<TrialRecord> {
      markPhase('to the host activity');
      const run = await runAgent(args);
      const { placement } = args;
      return finishTrial({ trial: args.trial, workspace: args.workspace, run, ...(placement ? { placement } : {}) });
    },

    /**
     * For a host lost during runAgentAndFinish: this attempt's record if that host wrote it, and
     * whether its agent had finished (the outputs were only there: the trial starts again elsewhere).
     */
    async findTrialRecordOf(args: {
      trial: TrialInput;
      containerKey?: string;
    }): Promise<{ record: TrialRecord | null; agentFinished: boolean }> {
      const key = agentResultKey(trialDirKey(args.trial.system.id, args.trial.taskId, args.trial.trial));
      const run = (await openResultsStore(args.trial.resultsDir).getJson(key)) as AgentRun | null;
      if (!run || !isThisAttempt(run, args.containerKey)) return { record: null, agentFinished: false };
      return { record: await recordOf(args.trial, run), agentFinished: true };
    },

    /** This run's record if it was written (by a host lost before it could say so), else null. */
    async findTrialRecord(args: { trial: TrialInput; run: AgentRun }): Promise<TrialRecord | null> {
      return recordOf(args.trial, args.run);
    },
  };
}

export type TrialActivities = ReturnType<typeof createTrialActivities>;

export function renderInstruction(request: string, outputs: LoadedTask['agent']['outputs']): string {
  const lines = [
    request.trim(),
    '',
    '---',
    'Input files are in /workspace/inputs/. Write every deliverable to /workspace/outputs/.',
  ];
  if (outputs.length > 0) {
    lines.push('Required deliverables:');
    for (const o of outputs)
      lines.push(`- /workspace/outputs/${o.path} (${o.format})${o.required ? '' : ' (optional)'}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The trial workflow's id, from inside one of its activities (names a Harbor trial's containers and snapshot). */
function workflowIdNow(): string {
  const id = Context.current().info.workflowExecution?.workflowId;
  if (id === undefined) throw new Error('a trial activity ran outside a workflow');
  return id;
}

/** A workspace prepared for this placement (any earlier one when the caller names none). */
function isPreparedFor(marker: string, placement: Placement | undefined): boolean {
  if (!existsSync(marker)) return false;
  return placement === undefined || readFileSync(marker, 'utf8') === placement.key;
}

/** The storage cap as prepared for a trial, beside its record. */
function storageKey(t: TrialInput): string {
  return `${trialDirKey(t.system.id, t.taskId, t.trial)}/${STORAGE_FILE}`;
}
