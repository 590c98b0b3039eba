// Host-affine trials: prepare runs on the worker of the workflow task (a local activity) and names
// its host; everything after it runs on that host's own queue. A host whose queue nobody polls is gone: the trial starts again
// from a clean workspace on whichever host prepares it next, a bounded number of times.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkflowFailedError } from '@temporalio/client';
import { MAX_HOST_MOVES, type HostMove } from '@assay/core';
import { projectWorkflow, trialWorkflow } from '@assay/workflows';
import { trialWorkflowId } from '@assay/workflows/definitions';
import {
  agentRun as agentRunOf,
  projectInput,
  projectStubs,
  resultOf,
  trialInput,
  trialStubs,
} from './support/stub-activities.js';

const evaluationOf = () => resultOf('evaluateTrial', { verdicts: [] });
import { startWorkflowTestEnv, type Stubs, type WorkflowTestEnv } from './support/workflow-test-env.js';

let t: WorkflowTestEnv;
beforeAll(async () => {
  t = await startWorkflowTestEnv();
});
afterAll(async () => {
  await t?.teardown();
});

/** What the trial's activities saw: prepares (placement keys) and the record's placement. */
interface Seen {
  placements: string[];
  recorded: { host: string; moves: HostMove[] }[];
}

/** Shared-queue stubs: only prepare, handing out these host ids in turn (the last one repeats). */
function sharedStubs(hosts: string[], seen: Seen): Stubs {
  return {
    prepareWorkspace: async (trial, placement) => {
      seen.placements.push(placement?.key ?? 'none');
      const hostId = hosts[Math.min(seen.placements.length, hosts.length) - 1];
      return { workspace: `/work/${trial.taskId}`, instructionDir: '/instruction', hostId };
    },
  };
}

/** A host's stubs: the rest of the trial; the record's placement goes to `seen`. */
function hostStubs(seen: Seen): Stubs {
  const { prepareWorkspace: _p, ...rest } = trialStubs([]);
  return {
    ...rest,
    recordTrial: async (args) => {
      if (args.placement) seen.recorded.push(args.placement);
      return rest.recordTrial(args);
    },
  };
}

function runTrial(id: string, hosts: string[], live: Record<string, Stubs>, seen: Seen, shared: Stubs = {}) {
  return t.withWorker(
    { ...sharedStubs(hosts, seen), ...shared },
    (taskQueue) =>
      t.client.workflow
        .execute(trialWorkflow, {
          taskQueue,
          workflowId: trialWorkflowId('hosts', `sys/${id}/1`),
          args: [trialInput({ jobId: 'hosts', taskId: id, hostWaitSeconds: 5 })],
        })
        .catch((err: unknown) => err),
    live,
  );
}

describe('host routing', () => {
  it("runs the agent, collection, evaluation and record on the preparing host's queue", async () => {
    const seen: Seen = { placements: [], recorded: [] };
    // The shared queue has no runAgent: the trial completes only if it went to the host's queue.
    const outcome = await runTrial('routed', ['hr-a'], { 'hr-a': hostStubs(seen) }, seen);
    expect(outcome).toMatchObject({ status: 'completed', score: 80 });
    expect(seen.placements).toHaveLength(1);
    expect(seen.recorded).toEqual([{ host: 'hr-a', moves: [] }]);
  });

  it('moves a trial whose host is gone, starting again from a clean workspace, and records the move', async () => {
    const seen: Seen = { placements: [], recorded: [] };
    const outcome = await runTrial('moved', ['hr-gone', 'hr-b'], { 'hr-b': hostStubs(seen) }, seen);
    expect(outcome).toMatchObject({ status: 'completed' });
    // Two prepares, each for its own placement: the second does not reuse the first's workspace.
    expect(seen.placements).toHaveLength(2);
    expect(new Set(seen.placements).size).toBe(2);
    expect(seen.recorded).toHaveLength(1);
    const [move, ...more] = seen.recorded[0]!.moves;
    expect(more).toEqual([]);
    expect(seen.recorded[0]!.host).toBe('hr-b');
    expect(move).toMatchObject({ from: 'hr-gone', to: 'hr-b' });
    expect(move!.reason).toBe('no worker of host "hr-gone" took runAgentAndFinish within 5 s');
    expect(Date.parse(move!.at)).not.toBeNaN();
  });

  // A host lost during runAgentAndFinish: its attempt's heartbeat times out and the retry waits on
  // the host's queue until that wait runs out. The time-skipping test server never times out a
  // retry's start, so a host whose queue nobody polls stands for it, and the shared queue's lookup
  // answers what the lost attempt left in the store.
  it('moves a trial whose host is lost after its agent finished there: the outputs were only there', async () => {
    const seen: Seen = { placements: [], recorded: [] };
    const asked: (string | undefined)[] = [];
    const findTrialRecordOf: Stubs['findTrialRecordOf'] = async ({ containerKey }) => {
      asked.push(containerKey);
      return { record: null, agentFinished: true };
    };
    const outcome = await runTrial('lost-after', ['hr-dies', 'hr-c'], { 'hr-c': hostStubs(seen) }, seen, {
      findTrialRecordOf,
    });
    expect(outcome).toMatchObject({ status: 'completed', score: 80 });
    expect(seen.placements).toHaveLength(2);
    // Asked about the first placement's run only (no container key: it had not moved yet).
    expect(asked).toEqual([undefined]);
    expect(seen.recorded).toEqual([
      {
        host: 'hr-c',
        moves: [
          expect.objectContaining({
            from: 'hr-dies',
            to: 'hr-c',
            reason: 'no worker of host "hr-dies" took runAgentAndFinish within 5 s after the agent finished there',
          }),
        ],
      },
    ]);
  });

  it('keeps the record the lost host wrote for this run: no move, no second run', async () => {
    const seen: Seen = { placements: [], recorded: [] };
    const written = await hostStubs(seen).recordTrial!({
      trial: trialInput({ jobId: 'hosts', taskId: 'written' }),
      run: agentRunOf(),
      deliverables: [],
      evaluation: evaluationOf(),
    });
    const findTrialRecordOf: Stubs['findTrialRecordOf'] = async () => ({ record: written, agentFinished: true });
    const outcome = await runTrial('written', ['hr-writes', 'hr-d'], { 'hr-d': hostStubs(seen) }, seen, {
      findTrialRecordOf,
    });
    expect(outcome).toMatchObject({ status: 'completed', score: 80 });
    expect(seen.placements).toHaveLength(1);
  });

  it('fails the trial with a clear reason once it has moved the most times allowed', async () => {
    const seen: Seen = { placements: [], recorded: [] };
    const outcome = await runTrial('stranded', ['hr-never'], {}, seen);
    expect(outcome).toBeInstanceOf(WorkflowFailedError);
    const cause = (outcome as WorkflowFailedError).cause;
    expect(cause?.message).toBe(
      `trial moved host ${MAX_HOST_MOVES} times, stopped: no worker of host "hr-never" took runAgentAndFinish within 5 s`,
    );
    expect(seen.placements).toHaveLength(MAX_HOST_MOVES + 1);
    expect(seen.recorded).toEqual([]);
  });
});

describe('project host routing', () => {
  it('moves a project whose host is gone to a fresh workspace on another host, and records where each step ran', async () => {
    const log: string[] = [];
    const recorded: unknown[] = [];
    const hosts = ['hp-gone', 'hp-b'];
    const all = projectStubs(log, [{ id: 's1', subtasks: ['a', 'b'] }]);
    // Shared queue: prepare (handing out the hosts in turn) and what reads only the store.
    const shared: Stubs = {
      prepareProjectWorkspace: async (_input, placement) => {
        log.push(`prepare ${placement?.key.split(':')[1]}`);
        const hostId = hosts[Math.min(log.filter((l) => l.startsWith('prepare')).length, hosts.length) - 1];
        return { stages: [{ id: 's1', subtasks: ['a', 'b'] }], hostId, restoredFrom: null };
      },
      evaluateCheckpoint: all.evaluateCheckpoint,
      markCheckpointUnjudged: all.markCheckpointUnjudged,
      recordCheckpoint: all.recordCheckpoint,
      evaluateFinalPackage: all.evaluateFinalPackage,
    };
    const onHost: Stubs = {
      releaseStage: all.releaseStage,
      runSubtaskAgent: async (args) => {
        log.push(`on ${args.subtask.hostId} (moves ${args.subtask.moves})`);
        return all.runSubtaskAgent(args);
      },
      snapshotCheckpoint: all.snapshotCheckpoint,
      recordProject: async (args) => {
        recorded.push(args.placement);
        return all.recordProject(args);
      },
    };
    const outcome = await t.withWorker(
      shared,
      (taskQueue) =>
        t.client.workflow.execute(projectWorkflow, {
          taskQueue,
          workflowId: 'project-hosts-moved',
          args: [projectInput({ projectId: 'moved', hostWaitSeconds: 5 })],
        }),
      { 'hp-b': onHost },
    );
    expect(outcome).toMatchObject({ processScore: 85, finalScore: 70 });
    expect(log).toEqual([
      'prepare 0',
      'prepare 1',
      'release s1',
      'on hp-b (moves 1)',
      'agent a',
      'checkpoint a 90',
      'on hp-b (moves 1)',
      'agent b',
      'checkpoint b 90',
      'final',
      'record []',
    ]);
    expect(recorded).toEqual([
      {
        host: 'hp-b',
        moves: [
          {
            from: 'hp-gone',
            to: 'hp-b',
            reason: 'no worker of host "hp-gone" took releaseStage within 5 s',
            at: expect.any(String),
            restoredFrom: null,
            session: 'restarted',
          },
        ],
      },
    ]);
  });
});
