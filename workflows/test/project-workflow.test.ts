// The project workflow: stages released in order before their subtasks, scripted
// client feedback through the acknowledged `injectFeedback` update, and its validator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { projectWorkflow } from '@assay/workflows';
import { injectFeedbackUpdate, projectProgressQuery, subtaskStageQuery } from '@assay/workflows/definitions';
import { Gate, projectInput, projectStubs, type Stage } from './support/stub-activities.js';
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

/**
 * Starts the project with `stubs`, hands its handle to `act` while it runs, and returns the outcome
 * and the final progress (queried while the worker still runs: a query replays on a worker).
 * `gates` are opened whatever `act` does, so a failed expectation cannot leave a stub waiting.
 */
function runProject(
  id: string,
  stubs: Stubs,
  act: (h: WorkflowHandle<typeof projectWorkflow>) => Promise<void> = async () => {},
  gates: Gate[] = [],
) {
  return t.withWorker(stubs, async (taskQueue) => {
    const handle = await t.client.workflow.start(projectWorkflow, {
      taskQueue,
      workflowId: `project-${id}`,
      args: [projectInput({ projectId: id })],
    });
    try {
      await act(handle);
    } finally {
      for (const g of gates) g.open();
    }
    const outcome = await handle.result();
    return { outcome, progress: await handle.query(projectProgressQuery) };
  });
}

const feedback = (name: string) => ({ name, text: `# ${name}\n` });

describe('projectWorkflow', () => {
  it('releases each stage before its subtasks, then judges the final package and records', async () => {
    const log: string[] = [];
    const { outcome, progress } = await runProject('order', projectStubs(log, stages));
    expect(log).toEqual([
      'prepare',
      'release s1',
      'agent a',
      'checkpoint a 90',
      'agent b',
      'checkpoint b 90',
      'release s2',
      'agent c',
      'checkpoint c 90',
      'final',
      'record []',
    ]);
    expect(outcome).toEqual({
      key: 'sys/order/1',
      processScore: 85,
      finalScore: 70,
      usage: { agent: [], judge: [], agentSeconds: 0 },
      checkpoints: ['a', 'b', 'c'].map((subtaskId) => ({
        subtaskId,
        agentStatus: 'completed',
        score: 90,
        unjudged: 0,
      })),
    });
    expect(progress).toMatchObject({
      stage: 's2',
      subtask: 'c',
      phase: 'done',
      finalScore: 70,
      injectedFeedback: 0,
    });
  });

  it('releases feedback injected during a subtask before the next one, and acknowledges which', async () => {
    const log: string[] = [];
    const gate = new Gate();
    const stubs = projectStubs(log, stages);
    const runAgent = stubs.runSubtaskAgent;
    stubs.runSubtaskAgent = async (args) => {
      const run = await runAgent(args);
      if (args.subtask.subtaskId === 'a') await gate.pass();
      return run;
    };
    let ack: unknown;
    const { outcome } = await runProject(
      'feedback',
      stubs,
      async (handle) => {
        await gate.reached;
        expect(await handle.query(projectProgressQuery)).toMatchObject({ stage: 's1', subtask: 'a', phase: 'subtask' });
        expect(await t.client.workflow.getHandle('project-feedback:a').query(subtaskStageQuery)).toBe('agent');
        ack = await handle.executeUpdate(injectFeedbackUpdate, { args: [feedback('client-note.md')] });
      },
      [gate],
    );
    expect(ack).toEqual({ accepted: true, releaseBefore: 'b' });
    expect(log.slice(2, 6)).toEqual(['agent a', 'checkpoint a 90', 'feedback client-note.md', 'agent b']);
    expect(log.filter((l) => l.startsWith('feedback'))).toHaveLength(1);
    expect(log.at(-1)).toBe(`record ${JSON.stringify([{ name: 'client-note.md', beforeSubtask: 'b' }])}`);
    expect(outcome.checkpoints).toHaveLength(3);
  });

  it('releases feedback injected before the first subtask before that subtask', async () => {
    const log: string[] = [];
    const gate = new Gate();
    const stubs = projectStubs(log, stages);
    const release = stubs.releaseStage;
    stubs.releaseStage = async (args) => {
      if (args.stageId === 's1') await gate.pass();
      return release(args);
    };
    let ack: unknown;
    await runProject(
      'early',
      stubs,
      async (handle) => {
        await gate.reached;
        ack = await handle.executeUpdate(injectFeedbackUpdate, { args: [feedback('kickoff.md')] });
      },
      [gate],
    );
    expect(ack).toEqual({ accepted: true, releaseBefore: 'a' });
    expect(log.slice(0, 4)).toEqual(['prepare', 'release s1', 'feedback kickoff.md', 'agent a']);
  });

  it('rejects feedback whose name is not a plain file name, and counts only accepted feedback', async () => {
    const log: string[] = [];
    const gate = new Gate();
    const stubs = projectStubs(log, stages);
    const runAgent = stubs.runSubtaskAgent;
    stubs.runSubtaskAgent = async (args) => {
      if (args.subtask.subtaskId === 'a') await gate.pass();
      return runAgent(args);
    };
    const rejections: string[] = [];
    await runProject(
      'names',
      stubs,
      async (handle) => {
        await gate.reached;
        for (const name of ['../escape.md', 'inputs/note.md', '', 'a b.md', 'x'.repeat(101)]) {
          const err = await handle.executeUpdate(injectFeedbackUpdate, { args: [feedback(name)] }).catch((e) => e);
          expect(err, name).toBeInstanceOf(WorkflowUpdateFailedError);
          rejections.push((err as WorkflowUpdateFailedError).cause?.message ?? '');
        }
        const ok = await handle.executeUpdate(injectFeedbackUpdate, { args: [feedback('v2_notes-final.md')] });
        expect(ok.accepted).toBe(true);
        expect((await handle.query(projectProgressQuery)).injectedFeedback).toBe(1);
      },
      [gate],
    );
    expect(rejections).toEqual(Array(5).fill('feedback name must be a plain file name'));
    expect(log.filter((l) => l.startsWith('feedback'))).toEqual(['feedback v2_notes-final.md']);
  });

  it('rejects feedback once no subtask is left to start (during the last subtask and after)', async () => {
    const log: string[] = [];
    const lastSubtask = new Gate();
    const finalPackage = new Gate();
    const stubs = projectStubs(log, stages);
    const runAgent = stubs.runSubtaskAgent;
    stubs.runSubtaskAgent = async (args) => {
      if (args.subtask.subtaskId === 'c') await lastSubtask.pass();
      return runAgent(args);
    };
    const evaluateFinal = stubs.evaluateFinalPackage;
    stubs.evaluateFinalPackage = async (args) => {
      await finalPackage.pass();
      return evaluateFinal(args);
    };
    const rejections: string[] = [];
    const reject = async (handle: WorkflowHandle<typeof projectWorkflow>) => {
      const err = await handle.executeUpdate(injectFeedbackUpdate, { args: [feedback('late.md')] }).catch((e) => e);
      expect(err).toBeInstanceOf(WorkflowUpdateFailedError);
      rejections.push((err as WorkflowUpdateFailedError).cause?.message ?? '');
    };
    await runProject(
      'late',
      stubs,
      async (handle) => {
        await lastSubtask.reached;
        await reject(handle);
        lastSubtask.open();
        await finalPackage.reached;
        await reject(handle);
      },
      [lastSubtask, finalPackage],
    );
    expect(rejections).toEqual(Array(2).fill('the project has no subtask left to receive feedback'));
    expect(log.at(-1)).toBe('record []');
  });
});
