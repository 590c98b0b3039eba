// A Harbor trial's container, on the engine: created once under its run's name, started and waited for as
// assay's own agents are (its end, its time limit, a requested cancel), and found again by a retried attempt.
// The activity's context is a stand-in: no Temporal server is needed to heartbeat, sleep or be cancelled.
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import Docker from 'dockerode';
import { asyncLocalStorage, type Context } from '@temporalio/activity';
import { afterEach, describe, expect, it } from 'vitest';
import { baseImageTag } from '@assay/infra';
import { createContainerOnce } from '../src/container-create-options.js';
import {
  buildHarborCreateOptions,
  runHarborContainer,
  type HarborContainerSpec,
} from '../src/harbor/harbor-container.js';
import { tarFile } from '../src/harbor/folder-tar.js';
import { FinishedElsewhere, containerNameFor, removeContainer } from '../src/run-agent-container.js';
import { checkDockerReady } from '../../test/support/docker-ready.js';

const docker = new Docker();
const dockerReady = await checkDockerReady(docker);
const runIds: string[] = [];
afterEach(async () => {
  for (const runId of runIds.splice(0)) await removeContainer(docker, runId);
});

function specOf(cmd: string, over: Partial<HarborContainerSpec> = {}): HarborContainerSpec {
  const runId = `assay-trial:harbor-container-${randomUUID()}`;
  runIds.push(runId);
  return {
    runId,
    workflowId: runId,
    image: baseImageTag(),
    cmd: ['/bin/sh', '-c', cmd],
    env: { GREETING: 'hello' },
    binds: [],
    labels: {},
    user: null,
    workdir: null,
    seconds: 60,
    cpus: 0.5,
    memoryGiB: 0.25,
    pids: 64,
    network: 'none',
    ...over,
  };
}

/** An activity's context as runHarborContainer uses it; `cancel` requests its cancellation as a workflow does. */
function activityContext() {
  const controller = new AbortController();
  let requested = false;
  const beats: unknown[] = [];
  const ctx = {
    info: { isLocal: false, attempt: 1 },
    heartbeat: (details: unknown) => beats.push(details),
    sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
    cancellationSignal: controller.signal,
    get cancellationDetails() {
      return { cancelRequested: requested };
    },
  } as unknown as Context;
  const cancel = (reason: Error) => {
    requested = true;
    controller.abort(reason);
  };
  return { ctx, beats, cancel };
}

const exists = (runId: string) =>
  docker
    .getContainer(containerNameFor(runId))
    .inspect()
    .then(
      () => true,
      (err: { statusCode?: number }) => (err.statusCode === 404 ? false : Promise.reject(err)),
    );

describe.skipIf(!dockerReady)("a Harbor trial's container", () => {
  it('is created, started and waited for to its end, with its output and exit code', async () => {
    const spec = specOf('echo "$GREETING"; exit 3');
    let fresh = 0;
    const { ctx } = activityContext();
    const result = await asyncLocalStorage.run(ctx, () =>
      runHarborContainer(docker, spec, { fresh: () => fresh++, finished: async () => false }),
    );
    expect([result.exitCode, result.timedOut, result.reattached, result.logs.trim(), fresh]).toEqual([
      3,
      false,
      false,
      'hello',
      1,
    ]);
  }, 60_000);

  it('is found again by a retried attempt when created but never started: filled, then started', async () => {
    const spec = specOf('cat /filled');
    await createContainerOnce(docker, buildHarborCreateOptions(spec));
    let fresh = 0;
    const { ctx } = activityContext();
    const result = await asyncLocalStorage.run(ctx, () =>
      runHarborContainer(docker, spec, {
        fresh: () => fresh++,
        finished: async () => false,
        beforeStart: async (container) => {
          await container.putArchive(tarFile(fileURLToPath(import.meta.url), 'filled'), { path: '/' });
        },
      }),
    );
    expect([result.exitCode, result.reattached, fresh]).toEqual([0, true, 0]);
    expect(result.logs).toContain("a Harbor trial's container");
  }, 60_000);

  it('is killed past its time limit, and heartbeats while it runs', async () => {
    const spec = specOf('sleep 30', { seconds: 1 });
    const { ctx, beats } = activityContext();
    const result = await asyncLocalStorage.run(ctx, () =>
      runHarborContainer(docker, spec, { fresh: () => undefined, finished: async () => false }),
    );
    expect(result.timedOut).toBe(true);
    expect(result.durationSeconds).toBeLessThan(10);
    expect(beats[0]).toMatchObject({ container: containerNameFor(spec.runId) });
  }, 60_000);

  it('is killed and removed when the workflow cancels the activity, which throws the cancellation', async () => {
    const spec = specOf('sleep 30');
    const { ctx, cancel } = activityContext();
    const reason = new Error('cancelled by the test');
    const run = asyncLocalStorage.run(ctx, () =>
      runHarborContainer(docker, spec, { fresh: () => undefined, finished: async () => false }),
    );
    while (!(await exists(spec.runId))) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 1500));
    cancel(reason);
    await expect(run).rejects.toBe(reason);
    expect(await exists(spec.runId)).toBe(false);
  }, 60_000);

  it('is not created again once another attempt finished the run', async () => {
    const spec = specOf('echo never');
    const { ctx } = activityContext();
    const run = asyncLocalStorage.run(ctx, () =>
      runHarborContainer(docker, spec, { fresh: () => undefined, finished: async () => true }),
    );
    await expect(run).rejects.toBeInstanceOf(FinishedElsewhere);
    expect(await exists(spec.runId)).toBe(false);
  }, 60_000);
});
