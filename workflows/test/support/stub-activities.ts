// Inputs for the workflows under test, and stub activity results that carry only
// the fields the workflows read (typed against the real activity signatures).
import {
  judgeSetupSchema,
  limitsSchema,
  resourcesSchema,
  type JobInput,
  type ProjectTrialInput,
  type TrialInput,
} from '@assay/core';
import type { Activities, Stubs } from './workflow-test-env.js';

type DeepPartial<T> = T extends (infer U)[]
  ? DeepPartial<U>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

export type ResultOf<K extends keyof Activities> = Awaited<ReturnType<Activities[K]>>;

/** A result of activity `K` with only some fields: the workflows never look at the rest. */
export function resultOf<K extends keyof Activities>(_activity: K, value: DeepPartial<ResultOf<K>>): ResultOf<K> {
  return value as ResultOf<K>;
}

export function jobInput(over: Partial<JobInput> = {}): JobInput {
  return {
    jobId: 'unit',
    resultsDir: '/results',
    benchmark: { id: 'bench', version: '1', root: '/bench' },
    taskIds: ['t1'],
    projectIds: [],
    systems: [{ id: 'sys', harness: 'nop', settings: {} }],
    trials: 1,
    concurrency: 2,
    limits: limitsSchema.parse({ agentSeconds: 60, setupSeconds: 60, verifierSeconds: 60 }),
    resources: resourcesSchema.parse({}),
    judge: judgeSetupSchema.parse({}),
    heartbeatSeconds: 30,
    ...over,
  };
}

/** What a job hands every child: its input without the fan-out fields. */
function childInput() {
  const { taskIds: _t, projectIds: _p, trials: _n, concurrency: _c, batchSize: _b, systems, ...shared } = jobInput();
  return { ...shared, system: systems[0]!, trial: 1 };
}

export function trialInput(over: Partial<TrialInput> = {}): TrialInput {
  return { ...childInput(), taskId: 't1', ...over };
}

export function projectInput(over: Partial<ProjectTrialInput> = {}): ProjectTrialInput {
  return { ...childInput(), projectId: 'proj', ...over };
}

export const agentRun = (exitCode = 0): ResultOf<'runAgent'> =>
  resultOf('runAgent', { exitCode, timedOut: false, reason: null, durationSeconds: 1, containerAttempts: 1 });

export const snapshot = resultOf('snapshotCheckpoint', { manifestSha256: 'f'.repeat(64), files: [] });

export function criteriaEvaluation(score: number | null, unjudged = 0): ResultOf<'evaluateCheckpoint'> {
  return resultOf('evaluateCheckpoint', { score, unjudged: Array.from({ length: unjudged }, (_, i) => `c${i}`) });
}

/** Every activity of a single-task trial, succeeding; `recorded` receives each trial's key as it is recorded. */
export function trialStubs(recorded: string[], score = 80): Pick<Required<Stubs>, TrialActivity> {
  return {
    prepareWorkspace: async (trial) => ({ workspace: `/work/${trial.taskId}`, instructionDir: '/instruction' }),
    runAgent: async () => agentRun(),
    evaluateTrial: async () => resultOf('evaluateTrial', { verdicts: [] }),
    recordTrial: async ({ trial }) => {
      recorded.push(`${trial.system.id}/${trial.taskId}/${trial.trial}`);
      return resultOf('recordTrial', {
        status: 'completed',
        score: { value: score, decided: score },
        verdicts: [],
        agent: { durationSeconds: 1 },
        usage: null,
      });
    },
  };
}

type TrialActivity = 'prepareWorkspace' | 'runAgent' | 'evaluateTrial' | 'recordTrial';

/**
 * `stubs` as activities, with a runAgentAndFinish made of their own runAgent, evaluate and record (as the
 * real activity is, with no deliverables to collect), so a test that changes one of those parts changes the
 * trial's finish; and a record lookup that finds none unless a test gives one. The parts are not activities.
 */
export function withFinishTrial(stubs: Stubs): Stubs {
  const { evaluateTrial, recordTrial, runAgent, ...activities } = stubs;
  const composed: Stubs = { findTrialRecordOf: async () => ({ record: null, agentFinished: false }), ...activities };
  if (!stubs.runAgentAndFinish && runAgent && evaluateTrial && recordTrial)
    composed.runAgentAndFinish = async (args) => {
      const run = await runAgent(args);
      const { trial, workspace, placement } = args;
      const evaluation = await evaluateTrial({ trial, workspace, deliverables: [] });
      return recordTrial({ trial, run, deliverables: [], evaluation, ...(placement ? { placement } : {}) });
    };
  return composed;
}

export interface Stage {
  id: string;
  subtasks: string[];
}

/**
 * Every activity of a project, succeeding (checkpoints score 90, final 70, process 85);
 * `log` receives one line per step, in order, so tests can check the timeline.
 */
export function projectStubs(log: string[], stages: Stage[]): Pick<Required<Stubs>, ProjectActivity> {
  return {
    prepareProjectWorkspace: async () => {
      log.push('prepare');
      return { stages };
    },
    releaseStage: async ({ stageId }) => {
      log.push(`release ${stageId}`);
      return [];
    },
    releaseFeedback: async ({ feedback }) => {
      log.push(`feedback ${feedback.map((f) => f.name).join(',')}`);
    },
    runSubtaskAgent: async ({ subtask }) => {
      log.push(`agent ${subtask.subtaskId}`);
      return agentRun();
    },
    snapshotCheckpoint: async () => snapshot,
    evaluateCheckpoint: async () => criteriaEvaluation(90),
    markCheckpointUnjudged: async ({ subtask, error }) => {
      log.push(`unjudged ${subtask.subtaskId}: ${error}`);
      return criteriaEvaluation(null, 2);
    },
    recordCheckpoint: async ({ subtask, evaluation }) => {
      log.push(`checkpoint ${subtask.subtaskId} ${evaluation.score}`);
    },
    evaluateFinalPackage: async () => {
      log.push('final');
      return resultOf('evaluateFinalPackage', { score: 70 });
    },
    recordProject: async ({ injected }) => {
      log.push(`record ${JSON.stringify(injected)}`);
      return resultOf('recordProject', { process: { score: 85 }, final: { score: 70, verdicts: [] }, checkpoints: [] });
    },
  };
}

type ProjectActivity =
  | 'prepareProjectWorkspace'
  | 'releaseStage'
  | 'releaseFeedback'
  | 'runSubtaskAgent'
  | 'snapshotCheckpoint'
  | 'evaluateCheckpoint'
  | 'markCheckpointUnjudged'
  | 'recordCheckpoint'
  | 'evaluateFinalPackage'
  | 'recordProject';

/** The harness adapters' error for a harness that cannot run here (activities/src/harness/container-plan.ts). */
export class HarnessNotAvailable extends Error {
  override name = 'HarnessNotAvailable';
}

/** Holds a stub activity until the test opens it, so the test can act while the workflow waits. */
export class Gate {
  private markReached!: () => void;
  private release!: () => void;
  /** Resolves once a stub has reached the gate. */
  readonly reached = new Promise<void>((r) => (this.markReached = r));
  private readonly opened = new Promise<void>((r) => (this.release = r));

  pass(): Promise<void> {
    this.markReached();
    return this.opened;
  }

  open(): void {
    this.release();
  }
}
