// Activities of single-task trials, built over injected clients (Docker, evidence,
// judge) so that only the worker constructs real ones.
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type Docker from 'dockerode';
import { loadBenchmark, type LoadedBenchmark, type LoadedTask } from '@assay/benchmark';
import {
  TRIAL_RECORD_SCHEMA,
  projectRecordSchema,
  scoreTask,
  trialRecordSchema,
  type ProjectRecord,
  type DeliverableEntry,
  type RubricItem,
  type TrialInput,
  type TrialRecord,
  type Verdict,
} from '@assay/core';
import {
  assessFormatCompliance,
  unjudgedVerdict,
  verdictFromCheck,
  type EvidenceTools,
  type FormatCompliance,
} from './evaluate-deliverables.js';
import { listRegularFiles } from './list-regular-files.js';
import { agentStatusOf, runHarness, type AgentRun } from './run-harness.js';
import { storeFile } from './snapshot-workspace.js';
import { emptyDir, mountWorkVolume, readStorageCap, unmountWorkVolume } from './workspace-volume.js';
import { trialPaths } from './trial-paths.js';
import { holdForFaultInjection, withHeartbeat } from './heartbeat.js';
import { writeJsonAtomic } from './write-file-atomic.js';

export interface PreparedWorkspace {
  workspace: string;
  instructionDir: string;
}

export interface Evaluation {
  verdicts: Verdict[];
  formatCompliance: FormatCompliance;
}

/** Decides rubric items that no check decided; absent when the job uses checks only. */
export type JudgeItems = (args: {
  trial: TrialInput;
  task: LoadedTask;
  items: RubricItem[];
  outputsDir: string;
}) => Promise<Verdict[]>;

export interface TrialActivityDeps {
  docker: Docker;
  evidence: EvidenceTools;
  images: { scriptedAgent: string };
  judgeItems?: JudgeItems;
  log?: (line: string) => void;
  /** Fault injection for chaos tests: step name -> hold in ms (see parseFaultDelays). */
  faults?: Record<string, number>;
}

/** Largest single deliverable we copy into the store; bigger files are noted, not copied. */
const MAX_DELIVERABLE_BYTES = 512 * 1024 ** 2;

export function createTrialActivities(deps: TrialActivityDeps) {
  const benchmarks = new Map<string, LoadedBenchmark>();
  const benchmarkAt = (root: string): LoadedBenchmark => {
    let b = benchmarks.get(root);
    if (!b) {
      b = loadBenchmark(root);
      benchmarks.set(root, b);
    }
    return b;
  };
  const taskOf = (trial: TrialInput): LoadedTask => {
    const task = benchmarkAt(trial.benchmark.root).tasks.find((t) => t.spec.id === trial.taskId);
    if (!task) throw new Error(`task "${trial.taskId}" is not in the benchmark at ${trial.benchmark.root}`);
    return task;
  };

  const evaluate = async (args: {
    trial: TrialInput;
    workspace: PreparedWorkspace;
    deliverables: DeliverableEntry[];
  }): Promise<Evaluation> => {
    const task = taskOf(args.trial);
    const outputsDir = path.join(args.workspace.workspace, 'outputs');
    await holdForFaultInjection(deps.faults?.evaluate ?? 0);
    const view = await deps.evidence.buildView(outputsDir);
    const verdicts = new Map<string, Verdict>();
    const forJudge: RubricItem[] = [];
    for (const item of task.evaluator.rubric.items) {
      if (item.check) {
        const v = verdictFromCheck(item, await deps.evidence.evaluateCheck(item.check, view));
        if (v.decision !== 'unjudged') {
          verdicts.set(item.id, v);
          continue;
        }
      }
      forJudge.push(item);
    }
    if (forJudge.length > 0) {
      const judged =
        deps.judgeItems && args.trial.judge.mode !== 'checks-only'
          ? await deps.judgeItems({ trial: args.trial, task, items: forJudge, outputsDir })
          : forJudge.map((item) => unjudgedVerdict(item, 'no judge configured (judge.mode is checks-only)'));
      for (const v of judged) verdicts.set(v.itemId, v);
    }
    return {
      verdicts: task.evaluator.rubric.items.map((i) => verdicts.get(i.id) ?? unjudgedVerdict(i, 'not evaluated')),
      formatCompliance: assessFormatCompliance(task.spec, args.deliverables),
    };
  };

  return {
    /** Copy the task's inputs (and nothing evaluator-only) into a fresh workspace. Idempotent. */
    async prepareWorkspace(trial: TrialInput): Promise<PreparedWorkspace> {
      const p = trialPaths(trial);
      const out = { workspace: p.workspace, instructionDir: p.instructionDir };
      // The cap first: the work folder becomes a fixed-size volume (idempotent).
      writeJsonAtomic(path.join(p.dir, 'storage.json'), mountWorkVolume(p.workDir, trial.resources.storageGiB));
      if (existsSync(p.preparedMarker)) return out;
      const { agent } = taskOf(trial);
      emptyDir(p.workDir);
      mkdirSync(path.join(p.workspace, 'outputs'), { recursive: true });
      mkdirSync(p.instructionDir, { recursive: true });
      if (existsSync(agent.inputsDir))
        cpSync(agent.inputsDir, path.join(p.workspace, 'inputs'), { recursive: true, dereference: true });
      else mkdirSync(path.join(p.workspace, 'inputs'));
      writeFileSync(path.join(p.instructionDir, 'instruction.md'), renderInstruction(agent.request, agent.outputs));
      writeFileSync(p.preparedMarker, new Date().toISOString());
      return out;
    },

    /** Run the harness container; agent failures are results, only infrastructure errors throw. */
    async runAgent(args: { trial: TrialInput; workspace: PreparedWorkspace; workflowId: string }): Promise<AgentRun> {
      const { trial } = args;
      const task = taskOf(trial);
      return runHarness(deps, {
        workflowId: args.workflowId,
        resultDir: trialPaths(trial).dir,
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
    },

    /** Hash every file in outputs/ into the job's content-addressed store. */
    async collectDeliverables(args: { trial: TrialInput; workspace: PreparedWorkspace }): Promise<DeliverableEntry[]> {
      const outputs = path.join(args.workspace.workspace, 'outputs');
      const entries: DeliverableEntry[] = [];
      for (const rel of listRegularFiles(outputs)) {
        const abs = path.join(outputs, rel);
        if (lstatSync(abs).size > MAX_DELIVERABLE_BYTES) continue;
        const { sha256, size } = storeFile(args.trial.resultsDir, abs);
        entries.push({ path: rel, sha256, size, detectedFormat: await deps.evidence.detectFormat(abs) });
      }
      return entries;
    },

    async evaluateTrial(args: {
      trial: TrialInput;
      workspace: PreparedWorkspace;
      deliverables: DeliverableEntry[];
    }): Promise<Evaluation> {
      return withHeartbeat('evaluating', () => evaluate(args));
    },

    async recordTrial(args: {
      trial: TrialInput;
      run: AgentRun;
      deliverables: DeliverableEntry[];
      evaluation: Evaluation;
    }): Promise<TrialRecord> {
      const { trial, run } = args;
      const task = taskOf(trial);
      const record: TrialRecord = trialRecordSchema.parse({
        schema: TRIAL_RECORD_SCHEMA,
        jobId: trial.jobId,
        benchmark: { id: trial.benchmark.id, version: trial.benchmark.version },
        system: { id: trial.system.id, harness: trial.system.harness, model: trial.system.model ?? null },
        task: { id: task.spec.id, domain: task.spec.domain, formatRequired: task.spec.formatRequired },
        trial: trial.trial,
        status: agentStatusOf(run),
        agent: {
          exitCode: run.exitCode,
          timedOut: run.timedOut,
          reason: run.reason,
          startedAt: run.startedAt,
          endedAt: run.endedAt,
          durationSeconds: run.durationSeconds,
          containerAttempts: run.containerAttempts,
        },
        usage: run.usage,
        deliverables: args.deliverables,
        formatCompliance: args.evaluation.formatCompliance,
        verdicts: args.evaluation.verdicts,
        score: scoreTask(args.evaluation.verdicts),
        storage: readStorageCap(trialPaths(trial).dir),
        recordedAt: new Date().toISOString(),
      });
      writeJsonAtomic(trialPaths(trial).record, record);
      unmountWorkVolume(trialPaths(trial).workDir);
      return record;
    },

    /** Keys (`system/task/trial`) of trials with a record that is not an infrastructure failure. */
    async listFinishedTrials(args: { resultsDir: string }): Promise<string[]> {
      return [
        ...readTrialRecords(args.resultsDir)
          .filter((r) => r.status !== 'infra-failed')
          .map((r) => `${r.system.id}/${r.task.id}/${r.trial}`),
        ...readProjectRecords(args.resultsDir).map((r) => `${r.system.id}/${r.project.id}/${r.trial}`),
      ];
    },

    /** `key` is `trials/<system>/<task>/<trial>` or `projects/<system>/<project>/<trial>`. */
    async recordInfraFailure(args: { resultsDir: string; key: string; error: string }): Promise<void> {
      writeJsonAtomic(path.join(args.resultsDir, args.key, 'infra-failure.json'), {
        error: args.error,
        at: new Date().toISOString(),
      });
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

export function readProjectRecords(resultsDir: string): ProjectRecord[] {
  const root = path.join(resultsDir, 'projects');
  return listRegularFiles(root)
    .filter((rel) => rel.split(path.sep).length === 4 && path.basename(rel) === 'record.json')
    .map((rel) => projectRecordSchema.safeParse(JSON.parse(readFileSync(path.join(root, rel), 'utf8'))))
    .flatMap((r) => (r.success ? [r.data] : []));
}

export function readTrialRecords(resultsDir: string): TrialRecord[] {
  const root = path.join(resultsDir, 'trials');
  const records: TrialRecord[] = [];
  for (const rel of listRegularFiles(root)) {
    if (path.basename(rel) !== 'record.json') continue;
    const parsed = trialRecordSchema.safeParse(JSON.parse(readFileSync(path.join(root, rel), 'utf8')));
    if (parsed.success) records.push(parsed.data);
  }
  return records;
}
