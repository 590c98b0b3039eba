// The job workflow: fan-out to child trials, skipping what is recorded, continuing
// as new every `batchSize` children, and recording infrastructure failures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkflowFailedError } from '@temporalio/client';
import { jobWorkflow } from '@assay/workflows';
import { jobWorkflowId } from '@assay/workflows/definitions';
import { HarnessNotAvailable, agentRun, jobInput, projectStubs, trialStubs } from './support/stub-activities.js';
import { startWorkflowTestEnv, type Stubs, type WorkflowTestEnv } from './support/workflow-test-env.js';

let t: WorkflowTestEnv;
beforeAll(async () => {
  t = await startWorkflowTestEnv();
});
afterAll(async () => {
  await t?.teardown();
});

const tasks = (n: number) => Array.from({ length: n }, (_, i) => `t${i + 1}`);

describe('jobWorkflow', () => {
  it('runs a job larger than one batch over continue-as-new runs, each trial once, skipping recorded ones', async () => {
    const recorded: string[] = [];
    let runs = 0;
    const stubs: Stubs = {
      ...trialStubs(recorded),
      // What is on disk: one trial from an earlier submission, plus what this job recorded.
      listFinishedTrials: async () => {
        runs++;
        return ['sys/t2/1', ...recorded];
      },
    };
    const input = jobInput({ jobId: 'batches', taskIds: tasks(7), batchSize: 2, concurrency: 2 });
    const progress = await t.withWorker(stubs, (taskQueue) =>
      t.client.workflow.execute(jobWorkflow, { taskQueue, workflowId: jobWorkflowId('batches'), args: [input] }),
    );

    expect([...recorded].sort()).toEqual(['sys/t1/1', 'sys/t3/1', 'sys/t4/1', 'sys/t5/1', 'sys/t6/1', 'sys/t7/1']);
    expect(runs).toBe(3); // 6 pending trials in batches of 2: two continue-as-new
    expect(progress.total).toBe(7);
    expect(progress.skipped).toBe(1); // carried over the runs, not recounted from this job's own records
    expect(progress.running).toEqual([]);
    expect(progress.done.map((o) => [o.key, o.status, o.score]).sort()).toEqual([
      ['sys/t6/1', 'completed', 80],
      ['sys/t7/1', 'completed', 80],
    ]);
  });

  it('starts no child when every trial is recorded', async () => {
    const recorded: string[] = [];
    const stubs: Stubs = { ...trialStubs(recorded), listFinishedTrials: async () => ['sys/t1/1', 'sys/t1/2'] };
    const input = jobInput({ jobId: 'resubmit', trials: 2 });
    const progress = await t.withWorker(stubs, (taskQueue) =>
      t.client.workflow.execute(jobWorkflow, { taskQueue, workflowId: jobWorkflowId('resubmit'), args: [input] }),
    );
    expect(recorded).toEqual([]);
    expect(progress).toEqual({
      total: 2,
      skipped: 2,
      running: [],
      done: [],
      control: {
        state: 'running',
        concurrency: 2,
        since: expect.any(Number),
        spend: { usd: 0, tokens: 0, agentHours: 0, unpricedTokens: 0 },
        projected: { usd: 0, tokens: 0, agentHours: 0, unpricedTokens: 0 },
        spendBy: {
          agents: { usd: 0, tokens: 0, agentHours: 0, unpricedTokens: 0 },
          judges: { usd: 0, tokens: 0, agentHours: 0, unpricedTokens: 0 },
        },
      },
    });
  });

  it('records an infrastructure failure once and carries it over continue-as-new without rerunning it', async () => {
    const recorded: string[] = [];
    const agentCalls: string[] = [];
    const failures: { key: string; error: string }[] = [];
    const stubs: Stubs = {
      ...trialStubs(recorded),
      listFinishedTrials: async () => [...recorded],
      runAgent: async ({ trial }) => {
        agentCalls.push(trial.taskId);
        if (trial.taskId === 't2') throw new HarnessNotAvailable('harness "nop" cannot run here');
        return agentRun();
      },
      recordInfraFailure: async ({ key, error }) => {
        failures.push({ key, error });
      },
    };
    const input = jobInput({ jobId: 'infra', taskIds: tasks(4), batchSize: 2, concurrency: 1 });
    const progress = await t.withWorker(stubs, (taskQueue) =>
      t.client.workflow.execute(jobWorkflow, { taskQueue, workflowId: jobWorkflowId('infra'), args: [input] }),
    );

    expect(agentCalls).toEqual(['t1', 't2', 't3', 't4']); // non-retryable, and not retried by the next run
    expect(failures).toEqual([{ key: 'trials/sys/t2/1', error: 'harness "nop" cannot run here' }]);
    expect(progress.done.map((o) => [o.key, o.status])).toEqual([
      ['sys/t2/1', 'infra-failed'],
      ['sys/t3/1', 'completed'],
      ['sys/t4/1', 'completed'],
    ]);
    expect(progress.done[0]).toMatchObject({
      score: null,
      decided: null,
      error: expect.stringContaining('cannot run'),
    });
  });

  it('runs projects as project workflows and reports final and process scores', async () => {
    const log: string[] = [];
    const stubs: Stubs = {
      ...projectStubs(log, [{ id: 's1', subtasks: ['a', 'b'] }]),
      listFinishedTrials: async () => [],
    };
    const input = jobInput({ jobId: 'projects', taskIds: [], projectIds: ['p1'] });
    const progress = await t.withWorker(stubs, (taskQueue) =>
      t.client.workflow.execute(jobWorkflow, { taskQueue, workflowId: jobWorkflowId('projects'), args: [input] }),
    );
    expect(progress.done).toEqual([
      {
        key: 'sys/p1/1',
        kind: 'project',
        status: 'completed',
        score: 70,
        decided: 85,
        unjudged: 0,
        usage: { agent: [], judge: [], agentSeconds: 0 },
      },
    ]);
  });

  it("records a project's infrastructure failure under projects/, with the activity's reason", async () => {
    const failures: { key: string; error: string }[] = [];
    const stubs: Stubs = {
      ...projectStubs([], [{ id: 's1', subtasks: ['a'] }]),
      listFinishedTrials: async () => [],
      runSubtaskAgent: async () => {
        throw new HarnessNotAvailable('harness "hermes" needs planHarnessRun');
      },
      recordInfraFailure: async ({ key, error }) => {
        failures.push({ key, error });
      },
    };
    const input = jobInput({ jobId: 'project-infra', taskIds: [], projectIds: ['p1'] });
    const progress = await t.withWorker(stubs, (taskQueue) =>
      t.client.workflow.execute(jobWorkflow, { taskQueue, workflowId: jobWorkflowId('project-infra'), args: [input] }),
    );
    expect(failures).toEqual([{ key: 'projects/sys/p1/1', error: 'harness "hermes" needs planHarnessRun' }]);
    expect(progress.done.map((o) => [o.key, o.status])).toEqual([['sys/p1/1', 'infra-failed']]);
  });

  it('fails, without retrying, a job that has no trials', async () => {
    const input = jobInput({ jobId: 'empty', taskIds: [], projectIds: [] });
    const run = t.withWorker({ listFinishedTrials: async () => [] }, (taskQueue) =>
      t.client.workflow.execute(jobWorkflow, { taskQueue, workflowId: jobWorkflowId('empty'), args: [input] }),
    );
    const err = await run.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkflowFailedError);
    expect((err as WorkflowFailedError).cause?.message).toBe('job has no trials');
  });
});
