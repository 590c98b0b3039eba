// Activities of single-task trials, built over injected clients (Docker, evidence,
// judge) so that only the worker constructs real ones.
import { existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Context } from '@temporalio/activity';
import type Docker from 'dockerode';
import type { AssayVersion, DeliverableEntry, TrialInput, TrialRecord } from '@assay/core';
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
import type { Evaluation } from './task-evaluation.js';
import type { NotifyThrottled } from './forward-throttles.js';
import { isThisAttempt, type AgentRun } from './run-harness.js';
import type { TemporalServerRef } from './run-agent-container.js';
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
import { LOCAL_HOST, type HostIdentity, type HostRecord, type Placement } from './host-identity.js';
import {
  taskRuntimeOf,
  type AgentArgs,
  type EvaluateArgs,
  type PreparedWorkspace,
  type TaskRuntime,
} from './task-runtime.js';

export type { PreparedWorkspace } from './task-runtime.js';

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
  const host = deps.host ?? LOCAL_HOST;
  const pathsOf = (trial: TrialInput) => trialPaths(trial, host.workRoot);
  const logUnmountFailure = (err: unknown) => deps.log?.(`could not unmount a work volume: ${String(err)}`);
  /** The trial's task kind, chosen once per activity and handed down: nothing below asks the task its kind. */
  const runtimeOf = (trial: TrialInput) =>
    taskRuntimeOf(benchmarks.task(trial.benchmark.root, trial.taskId), trial, {
      ...deps,
      host,
      workflowId: workflowIdNow,
    });

  const evaluate = async (rt: TaskRuntime, args: EvaluateArgs): Promise<Evaluation> => {
    await holdForFaultInjection(deps.faults?.evaluate ?? 0);
    return rt.evaluate(args);
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

  /** Drop what the trial held on this host: what its kind holds (a Harbor trial's snapshots), the work volume. */
  const release = async (rt: TaskRuntime, trial: TrialInput): Promise<void> => {
    await rt.release();
    unmountWorkVolumeLater(pathsOf(trial).workDir, logUnmountFailure);
  };

  const record = async (
    rt: TaskRuntime,
    args: {
      trial: TrialInput;
      run: AgentRun;
      deliverables: DeliverableEntry[];
      evaluation: Evaluation;
      placement?: HostRecord;
    },
  ): Promise<TrialRecord> => {
    const store = openResultsStore(args.trial.resultsDir);
    const storage = (await store.getJson(storageKey(args.trial))) as StorageCap | null;
    const task = benchmarks.task(args.trial.benchmark.root, args.trial.taskId);
    const { steps } = args.evaluation;
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
    const record = rt.record(assembled, args.evaluation);
    await writeTrialRecord(store, record);
    await release(rt, args.trial);
    return record;
  };

  /** The trial's record if this attempt wrote it: the same agent run (an archived run's record is another's). */
  const recordOf = async (trial: TrialInput, run: AgentRun): Promise<TrialRecord | null> => {
    const key = trialRecordKey(trial.system.id, trial.taskId, trial.trial);
    const found = (await openResultsStore(trial.resultsDir).getJson(key)) as TrialRecord | null;
    const same = found?.agent.startedAt === run.startedAt && found.agent.endedAt === run.endedAt;
    return found && same ? found : null;
  };

  const finishTrial = async (
    rt: TaskRuntime,
    args: {
      trial: TrialInput;
      workspace: PreparedWorkspace;
      run: AgentRun;
      placement?: HostRecord;
    },
  ): Promise<TrialRecord> => {
    let stage = 'collecting';
    const finish = async () => {
      const written = await recordOf(args.trial, args.run);
      if (written) {
        await release(rt, args.trial);
        return written;
      }
      const deliverables = await collect(args);
      markPhase('finish: collect');
      stage = 'evaluating';
      const evaluation = await evaluate(rt, { ...args, deliverables });
      markPhase('finish: evaluate');
      stage = 'recording';
      const recorded = await record(rt, { ...args, deliverables, evaluation });
      markPhase('finish: record', true);
      return recorded;
    };
    try {
      return await withHeartbeat(() => stage, finish);
    } finally {
      rt.leaveAgent(args.run);
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
      const runtime = runtimeOf(trial);
      const out = { workspace: p.workspace, instructionDir: p.instructionDir, hostId: host.id, ...runtime.begin() };
      // The cap first: the work folder becomes a fixed-size volume (idempotent).
      await openResultsStore(trial.resultsDir).putJson(
        storageKey(trial),
        await mountWorkVolumeAsync(p.workDir, trial.resources.storageGiB, volumePoolDir()),
      );
      markPhase('prepare: work volume');
      if (isPreparedFor(p.preparedMarker, placement)) return out;
      emptyDir(p.workDir);
      mkdirSync(path.join(p.workspace, 'outputs'), { recursive: true });
      mkdirSync(p.instructionDir, { recursive: true });
      runtime.prepare(p);
      writeFileSync(p.preparedMarker, placement?.key ?? new Date().toISOString());
      markPhase('prepare: inputs and instruction');
      return out;
    },

    /**
     * The agent, then collect, evaluate and record, in one activity on the workspace's host: one
     * round trip through the server. A retry returns the agent run this trial already stored instead
     * of starting a second agent; it finds the record this attempt already wrote (the same agent run)
     * and only releases the volume again: after a release the outputs are gone, so it must not
     * collect twice.
     */
    async runAgentAndFinish(args: AgentArgs & { placement?: HostRecord }): Promise<TrialRecord> {
      markPhase('to the host activity');
      const rt = runtimeOf(args.trial);
      const run = await rt.runAgent(args);
      const { placement } = args;
      return finishTrial(rt, {
        trial: args.trial,
        workspace: args.workspace,
        run,
        ...(placement ? { placement } : {}),
      });
    },

    /** A multi-step task's step: its agent (the workflow runs the steps one by one). */
    async runAgent(args: AgentArgs): Promise<AgentRun> {
      return runtimeOf(args.trial).runAgent(args);
    },

    /** A multi-step task's step: its verifier. */
    async evaluateTrial(args: Omit<EvaluateArgs, 'run'>): Promise<Evaluation> {
      const rt = runtimeOf(args.trial);
      return withHeartbeat('evaluating', () => evaluate(rt, args));
    },

    /** A multi-step task's record, after its steps; then this host's work volume goes (elsewhere there is none). */
    async recordTrial(args: Parameters<typeof record>[1]): Promise<TrialRecord> {
      return record(runtimeOf(args.trial), args);
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
  };
}

export type TrialActivities = ReturnType<typeof createTrialActivities>;

/** The trial workflow's id, from inside one of its activities (names the trial's containers and snapshots). */
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
