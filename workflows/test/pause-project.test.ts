// `pause --now` on a running project (issue #16): the job holds the project and tells it to stop;
// the running subtask's agent activity is cancelled, nothing is recorded for it, and once released
// the project makes its workspace again from the last checkpoint (a new placement), replays the
// releases since, and runs that subtask again. A subtask already past its agent just finishes.
import { Context } from '@temporalio/activity';
import { CancelledFailure } from '@temporalio/common';
import type { WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobWorkflow, projectWorkflow } from '@assay/workflows';
import {
  holdSubtasksSignal,
  jobWorkflowId,
  pauseJobUpdate,
  projectProgressQuery,
  resumeJobUpdate,
  stopSubtaskSignal,
} from '@assay/workflows/definitions';
import { Gate, jobInput, projectInput, projectStubs, type Stage } from './support/stub-activities.js';
import { startWorkflowTestEnv, type Stubs, type WorkflowTestEnv } from './support/workflow-test-env.js';

let t: WorkflowTestEnv;
beforeAll(async () => {
  t = await startWorkflowTestEnv();
});
afterAll(async () => {
  await t?.teardown();
});

const stages: Stage[] = [
  { id: 's1', subtasks: ['a', 'b'] },
  { id: 's2', subtasks: ['c'] },
];

/** Heartbeats until the workflow cancels the activity, as the real agent activity does. */
async function runUntilCancelled(): Promise<never> {
  const ctx = Context.current();
  for (;;) {
    ctx.heartbeat();
    if (ctx.cancellationSignal.aborted) throw new CancelledFailure('agent stopped');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Project stubs whose prepare logs the placement's suffix (`restart-N` once restarted) and whose record logs restarts. */
function stubsWith(log: string[], restarts: unknown[]): Stubs & ReturnType<typeof projectStubs> {
  const stubs = projectStubs(log, stages);
  return {
    ...stubs,
    prepareProjectWorkspace: async (_input, placement) => {
      log.push(`prepare ${placement?.key.split(':').slice(2).join(':') ?? ''}`.trim());
      return { stages, restoredFrom: log.some((l) => l.startsWith('checkpoint')) ? 'last' : null };
    },
    noteStoppedAgent: async ({ subtask, reason }) => {
      log.push(`stopped ${subtask.subtaskId}: ${reason}`);
    },
    recordProject: async (args) => {
      restarts.push(...(args.restarts ?? []));
      return stubs.recordProject(args);
    },
  };
}

async function pauseNow(handle: WorkflowHandle<typeof projectWorkflow>): Promise<void> {
  // As the job does: hold first, then stop.
  await handle.signal(holdSubtasksSignal, true);
  await handle.signal(stopSubtaskSignal);
}

async function waitForPhase(handle: WorkflowHandle<typeof projectWorkflow>, phase: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if ((await handle.query(projectProgressQuery)).phase === phase) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(
    `the project never reached phase ${phase}: ${JSON.stringify(await handle.query(projectProgressQuery))}`,
  );
}

describe('pause --now on a project', () => {
  it('stops the running agent, and on release runs that subtask again from the last checkpoint', async () => {
    const log: string[] = [];
    const restarts: unknown[] = [];
    const stubs = stubsWith(log, restarts);
    const reached = new Gate();
    let calls = 0;
    stubs.runSubtaskAgent = async (args) => {
      if (args.subtask.subtaskId === 'c' && calls++ === 0) {
        log.push('agent c (running)');
        void reached.pass();
        return runUntilCancelled();
      }
      return projectStubs(log, stages).runSubtaskAgent(args);
    };
    const outcome = await t.withWorker(stubs, async (taskQueue) => {
      const handle = await t.client.workflow.start(projectWorkflow, {
        taskQueue,
        workflowId: 'project-stop-now',
        args: [projectInput({ projectId: 'stop-now', heartbeatSeconds: 2 })],
      });
      await reached.reached;
      await pauseNow(handle);
      await waitForPhase(handle, 'paused');
      expect(log.at(-1)).toBe('stopped c: stopped by assay pause --now');
      expect(log.filter((l) => l.startsWith('checkpoint'))).toHaveLength(2); // nothing recorded for c
      await handle.signal(holdSubtasksSignal, false);
      return handle.result();
    });
    expect(log).toEqual([
      'prepare',
      'release s1',
      'agent a',
      'checkpoint a 90',
      'agent b',
      'checkpoint b 90',
      'release s2',
      'agent c (running)',
      'stopped c: stopped by assay pause --now',
      // A fresh workspace from b's checkpoint, s2's materials again, then c once more.
      'prepare restart-1',
      'release s2',
      'agent c',
      'checkpoint c 90',
      'final',
      'record []',
    ]);
    expect(outcome.checkpoints.map((c) => c.subtaskId)).toEqual(['a', 'b', 'c']);
    expect(restarts).toEqual([
      {
        subtaskId: 'c',
        reason: 'stopped by assay pause --now',
        at: expect.any(String),
        host: null,
        restoredFrom: 'last',
        session: 'restarted',
      },
    ]);
  });

  it('lets a subtask past its agent finish and holds the next one until released', async () => {
    const log: string[] = [];
    const restarts: unknown[] = [];
    const stubs = stubsWith(log, restarts);
    const snapshotting = new Gate();
    stubs.snapshotCheckpoint = async (args) => {
      if (args.subtask.subtaskId === 'a') await snapshotting.pass();
      return projectStubs(log, stages).snapshotCheckpoint(args);
    };
    await t.withWorker(stubs, async (taskQueue) => {
      const handle = await t.client.workflow.start(projectWorkflow, {
        taskQueue,
        workflowId: 'project-stop-late',
        args: [projectInput({ projectId: 'stop-late', heartbeatSeconds: 2 })],
      });
      await snapshotting.reached;
      await pauseNow(handle);
      snapshotting.open();
      await waitForPhase(handle, 'paused');
      expect(log.slice(-2)).toEqual(['agent a', 'checkpoint a 90']);
      await handle.signal(holdSubtasksSignal, false);
      return handle.result();
    });
    expect(log.filter((l) => l.startsWith('prepare') || l.startsWith('stopped'))).toEqual(['prepare']);
    expect(log.filter((l) => l.startsWith('agent'))).toEqual(['agent a', 'agent b', 'agent c']);
    expect(restarts).toEqual([]);
  });

  it('is what the job does to its running projects on pause --now; they finish once it resumes', async () => {
    const log: string[] = [];
    const stubs = { ...stubsWith(log, []), listFinishedTrials: async () => [] };
    const reached = new Gate();
    let calls = 0;
    stubs.runSubtaskAgent = async (args) => {
      if (args.subtask.subtaskId === 'a' && calls++ === 0) {
        void reached.pass();
        return runUntilCancelled();
      }
      return projectStubs(log, stages).runSubtaskAgent(args);
    };
    const input = jobInput({ jobId: 'pause-now-project', taskIds: [], projectIds: ['proj'], heartbeatSeconds: 2 });
    const done = await t.withWorker(stubs, async (taskQueue) => {
      const handle = await t.client.workflow.start(jobWorkflow, {
        taskQueue,
        workflowId: jobWorkflowId('pause-now-project'),
        args: [input],
      });
      await reached.reached;
      expect((await handle.executeUpdate(pauseJobUpdate, { args: [{ now: true }] })).state).toBe('paused');
      for (let i = 0; i < 400 && !log.some((l) => l.startsWith('stopped a')); i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(log.filter((l) => l.startsWith('agent') || l.startsWith('stopped'))).toEqual([
        'stopped a: stopped by assay pause --now',
      ]);
      await handle.executeUpdate(resumeJobUpdate, { args: [{}] });
      return handle.result();
    });
    expect(done.done.map((o) => o.status)).toEqual(['completed']);
    expect(log.filter((l) => l.startsWith('agent') || l.startsWith('prepare'))).toEqual([
      'prepare',
      'prepare restart-1',
      'agent a',
      'agent b',
      'agent c',
    ]);
  });
});
