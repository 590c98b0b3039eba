// Host-affine trials: prepare runs on the shared queue and names its host; everything after it
// runs on that host's own queue. A host whose queue nobody polls is gone: the trial starts again
// from a clean workspace on whichever host prepares it next, a bounded number of times.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkflowFailedError } from '@temporalio/client';
import { MAX_HOST_MOVES, type HostMove } from '@assay/core';
import { trialWorkflow } from '@assay/workflows';
import { trialWorkflowId } from '@assay/workflows/definitions';
import { trialInput, trialStubs } from './support/stub-activities.js';
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

function runTrial(id: string, hosts: string[], live: Record<string, Stubs>, seen: Seen) {
  return t.withWorker(
    sharedStubs(hosts, seen),
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
    expect(move!.reason).toBe('no worker of host "hr-gone" took runAgent within 5 s');
    expect(Date.parse(move!.at)).not.toBeNaN();
  });

  it('fails the trial with a clear reason once it has moved the most times allowed', async () => {
    const seen: Seen = { placements: [], recorded: [] };
    const outcome = await runTrial('stranded', ['hr-never'], {}, seen);
    expect(outcome).toBeInstanceOf(WorkflowFailedError);
    const cause = (outcome as WorkflowFailedError).cause;
    expect(cause?.message).toBe(
      `trial moved host ${MAX_HOST_MOVES} times, stopped: no worker of host "hr-never" took runAgent within 5 s`,
    );
    expect(seen.placements).toHaveLength(MAX_HOST_MOVES + 1);
    expect(seen.recorded).toEqual([]);
  });
});
