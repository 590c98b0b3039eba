// Which failures are retried where: infrastructure errors in activities are retried
// (server-side backoff, skipped in test time), HarnessNotAvailable is not, and a
// checkpoint whose evaluation keeps failing is kept and recorded as unjudged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActivityFailure, ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import { jobWorkflow, trialWorkflow } from '@assay/workflows';
import { jobWorkflowId, trialStageQuery, trialWorkflowId } from '@assay/workflows/definitions';
import {
  Gate,
  HarnessNotAvailable,
  agentRun,
  jobInput,
  projectStubs,
  resultOf,
  trialInput,
  trialStubs,
} from './support/stub-activities.js';
import { startWorkflowTestEnv, type Stubs, type WorkflowTestEnv } from './support/workflow-test-env.js';

let t: WorkflowTestEnv;
beforeAll(async () => {
  t = await startWorkflowTestEnv();
});
afterAll(async () => {
  await t?.teardown();
});

/** Runs one trial workflow; resolves to its outcome or its failure, plus its final stage. */
function runTrial(taskId: string, stubs: Stubs, act: (workflowId: string) => Promise<void> = async () => {}) {
  const workflowId = trialWorkflowId('retry', `sys/${taskId}/1`);
  return t.withWorker(stubs, async (taskQueue) => {
    const handle = await t.client.workflow.start(trialWorkflow, {
      taskQueue,
      workflowId,
      args: [trialInput({ jobId: 'retry', taskId })],
    });
    await act(workflowId);
    const outcome = await handle.result().catch((e: unknown) => e);
    return { outcome, stage: await handle.query(trialStageQuery) };
  });
}

/** The error an activity threw, as the workflow's failure carries it. */
function activityCause(err: unknown): ApplicationFailure {
  expect(err).toBeInstanceOf(WorkflowFailedError);
  const activity = (err as WorkflowFailedError).cause;
  expect(activity).toBeInstanceOf(ActivityFailure);
  expect(activity?.cause).toBeInstanceOf(ApplicationFailure);
  return activity!.cause as ApplicationFailure;
}

describe('retry routing', () => {
  it('retries an agent activity that fails for infrastructure reasons, then completes the trial', async () => {
    const recorded: string[] = [];
    let attempts = 0;
    const stubs: Stubs = {
      ...trialStubs(recorded),
      runAgent: async () => {
        if (++attempts < 3) throw new Error('docker: connection reset');
        return agentRun();
      },
    };
    const before = await t.env.currentTimeMs();
    const { outcome, stage } = await runTrial('flaky', stubs);
    expect(attempts).toBe(3);
    expect(outcome).toEqual({
      key: 'sys/flaky/1',
      status: 'completed',
      score: 80,
      decided: 80,
      unjudged: 0,
      usage: { agent: [], judge: [], agentSeconds: 1 },
    });
    expect(recorded).toEqual(['sys/flaky/1']);
    expect(stage).toBe('done');
    // The 2 s and 4 s backoffs passed in test time.
    expect((await t.env.currentTimeMs()) - before).toBeGreaterThanOrEqual(6_000);
  });

  it('does not retry HarnessNotAvailable and stops the trial before evaluating', async () => {
    const calls: string[] = [];
    const stubs: Stubs = {
      ...trialStubs([]),
      runAgent: async () => {
        calls.push('runAgent');
        throw new HarnessNotAvailable('harness "codex" (system "sys") has no adapter');
      },
      evaluateTrial: async () => {
        calls.push('evaluateTrial');
        return resultOf('evaluateTrial', { verdicts: [] });
      },
    };
    const { outcome, stage } = await runTrial('no-harness', stubs);
    expect(calls).toEqual(['runAgent']);
    const cause = activityCause(outcome);
    expect(cause.type).toBe('HarnessNotAvailable');
    expect(cause.message).toBe('harness "codex" (system "sys") has no adapter');
    expect(stage).toBe('agent');
  });

  // The evaluation runs in runAgentAndFinish, under the agent's retry policy (10 attempts); each
  // retry returns the stored agent run instead of starting another agent (runHarness).
  it('gives up on a trial evaluation after 10 attempts, without recording a score', async () => {
    const recorded: string[] = [];
    let attempts = 0;
    const stubs: Stubs = {
      ...trialStubs(recorded),
      evaluateTrial: async () => {
        attempts++;
        throw new Error('evidence view: soffice crashed');
      },
    };
    const { outcome, stage } = await runTrial('no-eval', stubs);
    expect(attempts).toBe(10);
    expect(activityCause(outcome).message).toBe('evidence view: soffice crashed');
    expect(recorded).toEqual([]);
    expect(stage).toBe('agent');
  });

  it('reports each stage of a trial through the stage query', async () => {
    const gates = { agent: new Gate(), evaluating: new Gate() };
    const stubs: Stubs = {
      ...trialStubs([]),
      runAgent: async () => {
        await gates.agent.pass();
        return agentRun();
      },
      evaluateTrial: async (args) => {
        await gates.evaluating.pass();
        return trialStubs([]).evaluateTrial(args);
      },
    };
    const seen: string[] = [];
    const { stage } = await runTrial('stages', stubs, async (workflowId) => {
      const handle = t.client.workflow.getHandle(workflowId);
      for (const gate of [gates.agent, gates.evaluating]) {
        await gate.reached;
        seen.push(await handle.query(trialStageQuery));
        gate.open();
      }
    });
    // One activity runs the agent and the finish: the stage is 'agent' for both (its heartbeat
    // details, in the Web UI, say which part it is in).
    expect(seen).toEqual(['agent', 'agent']);
    expect(stage).toBe('done');
  });

  it('keeps a checkpoint whose evaluation keeps failing as unjudged, and the project still records', async () => {
    const log: string[] = [];
    let attempts = 0;
    const stubs: Stubs = {
      ...projectStubs(log, [{ id: 's1', subtasks: ['a', 'b'] }]),
      listFinishedTrials: async () => [],
      evaluateCheckpoint: async ({ subtask }) => {
        if (subtask.subtaskId === 'b') {
          attempts++;
          throw new Error('judge: 503 from provider');
        }
        return projectStubs([], []).evaluateCheckpoint({ subtask, snapshot: { manifestSha256: '', files: [] } });
      },
    };
    const input = jobInput({ jobId: 'unjudged', taskIds: [], projectIds: ['p1'] });
    const progress = await t.withWorker(stubs, (taskQueue) =>
      t.client.workflow.execute(jobWorkflow, { taskQueue, workflowId: jobWorkflowId('unjudged'), args: [input] }),
    );
    expect(attempts).toBe(5);
    expect(log.filter((l) => !l.startsWith('agent'))).toEqual([
      'prepare',
      'release s1',
      'checkpoint a 90',
      'unjudged b: judge: 503 from provider',
      'checkpoint b null',
      'final',
      'record []',
    ]);
    expect(progress.done).toEqual([
      {
        key: 'sys/p1/1',
        kind: 'project',
        status: 'completed',
        score: 70,
        decided: 85,
        unjudged: 2,
        usage: { agent: [], judge: [], agentSeconds: 0 },
      },
    ]);
  });
});
