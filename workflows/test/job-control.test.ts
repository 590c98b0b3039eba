// Job control on the time-skipping server: pause holds new starts (and a running project's next
// subtask), resume releases them, `pause --now` stops a running agent and runs its trial again,
// set-concurrency changes the lanes live, and cancel records what did not finish as cancelled.
import { Context } from '@temporalio/activity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobWorkflow } from '@assay/workflows';
import {
  cancelJobUpdate,
  jobProgressQuery,
  jobWorkflowId,
  pauseJobUpdate,
  resumeJobUpdate,
  setConcurrencyUpdate,
  type JobProgress,
} from '@assay/workflows/definitions';
import type { CancelledUnit } from '@assay/activities';
import { jobControlFileSchema, type JobControlFile } from '@assay/core';
import { Gate, agentRun, jobInput, projectStubs, trialStubs } from './support/stub-activities.js';
import { startWorkflowTestEnv, type Stubs, type WorkflowTestEnv } from './support/workflow-test-env.js';

let t: WorkflowTestEnv;
beforeAll(async () => {
  t = await startWorkflowTestEnv();
});
afterAll(async () => {
  await t?.teardown();
});

const tasks = (n: number) => Array.from({ length: n }, (_, i) => `t${i + 1}`);

/** An agent stub that runs until its gate opens, heartbeating, or until it is cancelled. */
function heldAgent(gates: Map<string, Gate>, calls: string[]): Stubs['runAgent'] {
  return async ({ trial }) => {
    calls.push(trial.taskId);
    const gate = gates.get(trial.taskId);
    if (!gate) return agentRun();
    const ctx = Context.current();
    let open = false;
    void gate.pass().then(() => (open = true));
    while (!open) {
      ctx.heartbeat();
      await Promise.race([ctx.sleep(200), ctx.cancelled]);
    }
    gates.delete(trial.taskId);
    return agentRun();
  };
}

/** What the job wrote to job-control.json, in order (validated as the real activity does). */
function controlWrites() {
  const writes: JobControlFile[] = [];
  const writeJobControl: Stubs['writeJobControl'] = async ({ control }) => {
    writes.push(jobControlFileSchema.parse(control));
  };
  return { writes, writeJobControl, last: () => writes.at(-1) };
}

async function until(probe: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('job control', () => {
  it('pause holds new starts, set-concurrency widens the lanes, resume runs the rest once each', async () => {
    const recorded: string[] = [];
    const calls: string[] = [];
    const gates = new Map([['t1', new Gate()]]);
    const stubs: Stubs = {
      ...trialStubs(recorded),
      listFinishedTrials: async () => [...recorded],
      runAgent: heldAgent(gates, calls),
    };
    const input = jobInput({ jobId: 'pause', taskIds: tasks(4), concurrency: 1, heartbeatSeconds: 2 });
    await t.withWorker(stubs, async (taskQueue) => {
      const handle = await t.client.workflow.start(jobWorkflow, {
        taskQueue,
        workflowId: jobWorkflowId('pause'),
        args: [input],
      });
      await gates.get('t1')!.reached;
      const paused = await handle.executeUpdate(pauseJobUpdate, { args: [{ reason: 'provider outage' }] });
      expect(paused).toMatchObject({ state: 'paused', reason: 'provider outage', concurrency: 1 });
      const widened = await handle.executeUpdate(setConcurrencyUpdate, { args: [3] });
      expect(widened.concurrency).toBe(3);
      gates.get('t1')!.open();
      await until(async () => recorded.includes('sys/t1/1'), 't1 recorded');
      // Paused: the running trial finished, nothing new started even with three free lanes.
      await new Promise((r) => setTimeout(r, 500));
      expect(calls).toEqual(['t1']);
      const progress: JobProgress = await handle.query(jobProgressQuery);
      expect(progress.control).toMatchObject({ state: 'paused', concurrency: 3 });
      expect((await handle.describe()).memo).toMatchObject({ assayControl: 'paused' });
      for (const n of [0, 1001])
        await expect(handle.executeUpdate(setConcurrencyUpdate, { args: [n] })).rejects.toThrow();
      expect((await handle.executeUpdate(resumeJobUpdate, { args: [{}] })).state).toBe('running');
      const done = await handle.result();
      expect(done.done.map((o) => o.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    });
    expect([...calls].sort()).toEqual(['t1', 't2', 't3', 't4']);
    expect([...recorded].sort()).toEqual(['sys/t1/1', 'sys/t2/1', 'sys/t3/1', 'sys/t4/1']);
  });

  it('pause --now stops the running agent; after resume its trial runs again from a clean workspace', async () => {
    const recorded: string[] = [];
    const calls: string[] = [];
    const discarded: string[] = [];
    const gates = new Map([['t1', new Gate()]]);
    const stubs: Stubs = {
      ...trialStubs(recorded),
      listFinishedTrials: async () => [...recorded],
      runAgent: heldAgent(gates, calls),
      discardTrialWork: async ({ trial }) => {
        discarded.push(trial.taskId);
      },
    };
    const input = jobInput({ jobId: 'pause-now', taskIds: tasks(2), concurrency: 1, heartbeatSeconds: 2 });
    await t.withWorker(stubs, async (taskQueue) => {
      const handle = await t.client.workflow.start(jobWorkflow, {
        taskQueue,
        workflowId: jobWorkflowId('pause-now'),
        args: [input],
      });
      await gates.get('t1')!.reached;
      gates.set('t1', new Gate()); // the second run of t1 is held again, to show it started
      await handle.executeUpdate(pauseJobUpdate, { args: [{ now: true }] });
      await until(async () => discarded.includes('t1'), 't1 discarded');
      expect(recorded).toEqual([]);
      await handle.executeUpdate(resumeJobUpdate, { args: [{}] });
      await gates.get('t1')!.reached;
      gates.get('t1')!.open();
      await handle.result();
    });
    expect(calls).toEqual(['t1', 't1', 't2']); // stopped once, then run to the end once
    expect([...recorded].sort()).toEqual(['sys/t1/1', 'sys/t2/1']);
  });

  it('holds a running project before its next subtask while paused', async () => {
    const log: string[] = [];
    const gate = new Gate();
    const project = projectStubs(log, [{ id: 's1', subtasks: ['a', 'b'] }]);
    const stubs: Stubs = {
      ...project,
      listFinishedTrials: async () => [],
      runSubtaskAgent: async (args) => {
        if (args.subtask.subtaskId === 'a') await gate.pass();
        return project.runSubtaskAgent(args);
      },
    };
    const input = jobInput({ jobId: 'pause-project', taskIds: [], projectIds: ['proj'] });
    await t.withWorker(stubs, async (taskQueue) => {
      const handle = await t.client.workflow.start(jobWorkflow, {
        taskQueue,
        workflowId: jobWorkflowId('pause-project'),
        args: [input],
      });
      await gate.reached;
      await handle.executeUpdate(pauseJobUpdate, { args: [{}] });
      gate.open();
      await until(async () => log.includes('checkpoint a 90'), 'subtask a recorded');
      await new Promise((r) => setTimeout(r, 500));
      expect(log).not.toContain('agent b');
      await handle.executeUpdate(resumeJobUpdate, { args: [{}] });
      const done = await handle.result();
      expect(done.done.map((o) => o.status)).toEqual(['completed']);
    });
    expect(log.filter((l) => l.startsWith('agent'))).toEqual(['agent a', 'agent b']);
  });

  it('cancel lets the running trial use its grace, then stops it and records every unfinished unit', async () => {
    const recorded: string[] = [];
    const calls: string[] = [];
    const cancelled: CancelledUnit[] = [];
    const gates = new Map([['t2', new Gate()]]);
    const stubs: Stubs = {
      ...trialStubs(recorded),
      listFinishedTrials: async () => ['sys/t1/1'],
      runAgent: heldAgent(gates, calls),
      discardTrialWork: async () => undefined,
      recordCancelled: async ({ units }) => {
        cancelled.push(...units);
      },
    };
    const input = jobInput({ jobId: 'cancel', taskIds: tasks(4), concurrency: 1, heartbeatSeconds: 2 });
    const progress = await t.withWorker(stubs, async (taskQueue) => {
      const handle = await t.client.workflow.start(jobWorkflow, {
        taskQueue,
        workflowId: jobWorkflowId('cancel'),
        args: [input],
      });
      await gates.get('t2')!.reached;
      expect((await handle.executeUpdate(cancelJobUpdate, { args: [{ graceSeconds: 2 }] })).state).toBe('cancelling');
      await expect(handle.executeUpdate(pauseJobUpdate, { args: [{}] })).rejects.toThrow();
      return handle.result();
    });
    expect(calls).toEqual(['t2']);
    expect(recorded).toEqual([]);
    expect(cancelled.map((u) => [u.key, u.started])).toEqual([
      ['sys/t2/1', true],
      ['sys/t3/1', false],
      ['sys/t4/1', false],
    ]);
    expect(progress.control?.state).toBe('cancelled');
    expect(progress.skipped).toBe(1);
    expect(progress.done.map((o) => [o.key, o.status])).toEqual([
      ['sys/t2/1', 'cancelled'],
      ['sys/t3/1', 'cancelled'],
      ['sys/t4/1', 'cancelled'],
    ]);
  });

  it('pauses itself when the budget is reached, refuses to resume under it, resumes once it is raised', async () => {
    const recorded: string[] = [];
    const calls: string[] = [];
    const base = trialStubs(recorded);
    const file = controlWrites();
    const stubs: Stubs = {
      ...base,
      writeJobControl: file.writeJobControl,
      listFinishedTrials: async () => [...recorded],
      runAgent: async ({ trial }) => {
        calls.push(trial.taskId);
        return agentRun();
      },
      // Each trial: 1000 agent input tokens (priced), and one judged item of 500 tokens (unpriced model).
      recordTrial: async (args) => ({
        ...(await base.recordTrial(args)),
        usage: { inputTokens: 1000, outputTokens: 0, cachedInputTokens: 0, costUsd: null, turns: null },
        agent: { durationSeconds: 360 } as never,
        verdicts: [
          { judge: { model: 'judge-x', reused: false, usage: { inputTokens: 400, outputTokens: 100 } } },
        ] as never,
      }),
    };
    const input = jobInput({
      jobId: 'budget',
      taskIds: tasks(3),
      concurrency: 1,
      systems: [{ id: 'sys', harness: 'nop', model: 'agent-m', settings: {} }],
      budget: { tokens: 2000, covers: 'agents' },
      prices: { 'agent-m': { inputPerMTok: 2, outputPerMTok: 8 } },
    });
    await t.withWorker(stubs, async (taskQueue) => {
      const handle = await t.client.workflow.start(jobWorkflow, {
        taskQueue,
        workflowId: jobWorkflowId('budget'),
        args: [input],
      });
      await until(async () => (await handle.query(jobProgressQuery)).control?.state === 'paused', 'the budget pause');
      const progress: JobProgress = await handle.query(jobProgressQuery);
      expect(calls).toEqual(['t1', 't2']); // 2000 agent tokens after two trials: nothing more starts
      expect(progress.control?.reason).toBe('budget reached (agents): tokens 2000 of 2000');
      expect(progress.control?.spend).toEqual({ usd: 0.004, tokens: 2000, agentHours: 0.2, unpricedTokens: 0 });
      expect(progress.control?.projected?.tokens).toBe(3000); // one trial to go, at the average so far
      expect((await handle.describe()).memo).toMatchObject({ assayControl: 'paused' });
      // job-control.json says so too, with who paused it and why.
      await until(async () => file.last()?.state === 'paused', 'job-control.json to say paused');
      expect(file.last()).toMatchObject({
        jobId: 'budget',
        pausedBy: 'budget',
        reason: 'budget reached (agents): tokens 2000 of 2000',
        concurrency: 1,
        spend: { tokens: 2000 },
        budget: { tokens: 2000, covers: 'agents' },
      });
      await expect(handle.executeUpdate(resumeJobUpdate, { args: [{}] })).rejects.toThrow();
      // Counting judges too, the budget would be reached as well: still refused.
      await expect(
        handle.executeUpdate(resumeJobUpdate, { args: [{ budget: { tokens: 2500, covers: 'all' } }] }),
      ).rejects.toThrow();
      const resumed = await handle.executeUpdate(resumeJobUpdate, {
        args: [{ budget: { tokens: 10_000, covers: 'all' } }],
      });
      expect(resumed.state).toBe('running');
      expect(resumed.spend).toEqual({ usd: 0.004, tokens: 3000, agentHours: 0.2, unpricedTokens: 1000 });
      const done = await handle.result();
      expect(done.control?.spend?.tokens).toBe(4500);
    });
    expect(calls).toEqual(['t1', 't2', 't3']);
    // Written only on change (never twice the same state), the last one once everything had finished.
    const states = file.writes.map((w) => w.state);
    expect(states.slice(states.indexOf('paused'))).toEqual(expect.arrayContaining(['paused', 'running', 'done']));
    expect(
      file.writes.every(
        (w, i) =>
          i === 0 ||
          JSON.stringify({ ...w, updatedAt: '' }) !== JSON.stringify({ ...file.writes[i - 1], updatedAt: '' }),
      ),
    ).toBe(true);
    expect(file.last()).toMatchObject({
      state: 'done',
      pausedBy: null,
      spend: { tokens: 4500 },
      budget: { covers: 'all' },
    });
    expect(file.writes.length).toBeLessThanOrEqual(8);
  });
});
