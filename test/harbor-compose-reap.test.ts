// The sidecars of Harbor compose trials are reaped like agent containers: a worker's start-up reaper removes
// the sidecars, the trial network AND the named volumes of its server's workflows that no longer run, and keeps
// a running one's.
// Real sidecars, made by ensureSidecars from the compose fixture, on a real engine.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectBenchmark, type HarborTask } from '@assay/benchmark';
import { reapContainers, serverLabels } from '../activities/src/index.js';
import { ensureSidecars, networkNameFor, volumeNameFor } from '../activities/src/harbor/harbor-sidecars.js';
import { ROOT } from './support/e2e.js';

const docker = new Docker();
const run = randomUUID().slice(0, 8);
// An address no other worker on this machine uses, so the test reaps nothing of anyone else's.
const server = { address: `compose-reaper-${run}:7233`, namespace: 'default' };
const ids = { finished: `assay-trial:${run}:finished`, running: `assay-trial:${run}:running` };
const labels = { ...serverLabels(server), 'assay.test-run': run };

afterAll(async () => {
  const filters = { label: [`assay.test-run=${run}`] };
  for (const c of await docker.listContainers({ all: true, filters }))
    await docker.getContainer(c.Id).remove({ force: true });
  for (const n of await docker.listNetworks({ filters })) await docker.getNetwork(n.Id).remove();
  for (const v of (await docker.listVolumes({ filters })).Volumes ?? []) await docker.getVolume(v.Name).remove();
});

function composeTask(fixture = 'compose'): { id: string; harbor: HarborTask } {
  const root = path.join(ROOT, 'test/fixtures/harbor', fixture);
  const task = inspectBenchmark(`harbor:${root}`).benchmark?.tasks[0];
  if (task?.kind !== 'harbor') throw new Error('the compose fixture did not load');
  return { id: task.spec.id, harbor: task.harbor };
}

const left = async (workflowId: string): Promise<string[]> => {
  const filters = { label: [`assay.workflow-id=${workflowId}`] };
  const containers = await docker.listContainers({ all: true, filters });
  const networks = await docker.listNetworks({ filters });
  const { Volumes } = await docker.listVolumes({ filters });
  return [
    ...containers.map((c) => `container ${c.Labels['assay.role']}`),
    ...networks.map((n) => `network ${n.Name}`),
    ...(Volumes ?? []).map((v) => `volume ${v.Name}`),
  ];
};

describe('reaping Harbor compose trials', () => {
  it("removes a finished trial's sidecars and network, keeps a running trial's, starts nothing twice", async () => {
    const task = composeTask();
    const limits = { cpus: 0.5, memoryGiB: 0.25, pids: 64, buildSeconds: 600 };
    const heartbeat = () => undefined;
    for (const workflowId of [ids.finished, ids.running])
      await ensureSidecars(docker, { task, workflowId, labels, internal: true, limits, heartbeat });
    // Again, as a retried activity would: the same containers are found, none is created.
    const before = (await docker.listContainers({ all: true, filters: { label: [`assay.test-run=${run}`] } })).map(
      (c) => c.Id,
    );
    await ensureSidecars(docker, { task, workflowId: ids.running, labels, internal: true, limits, heartbeat });
    const after = (await docker.listContainers({ all: true, filters: { label: [`assay.test-run=${run}`] } })).map(
      (c) => c.Id,
    );
    expect(after.sort()).toEqual(before.sort());
    expect(before).toHaveLength(2);
    const net = await docker.getNetwork(networkNameFor(ids.running)).inspect();
    expect(net.Internal).toBe(true);

    const lines: string[] = [];
    await reapContainers(
      docker,
      server,
      async (id) => id === ids.running,
      (l) => lines.push(l),
    );
    expect(await left(ids.finished)).toEqual([]);
    expect(await left(ids.running)).toEqual(['container sidecar', `network ${networkNameFor(ids.running)}`]);
    expect(lines.join('\n')).toContain(`removed stray network ${networkNameFor(ids.finished)}`);
  }, 600_000);

  it("removes a finished trial's volumes (named and bound folder) after its sidecars, keeps a running trial's", async () => {
    const task = composeTask('compose-volumes');
    const limits = { cpus: 0.5, memoryGiB: 0.25, pids: 64, buildSeconds: 600 };
    const heartbeat = () => undefined;
    const vols = { finished: `${ids.finished}:volumes`, running: `${ids.running}:volumes` };
    for (const workflowId of [vols.finished, vols.running])
      await ensureSidecars(docker, { task, workflowId, labels, internal: true, limits, heartbeat });
    const lines: string[] = [];
    await reapContainers(
      docker,
      server,
      async (id) => id === vols.running,
      (l) => lines.push(l),
    );
    expect(await left(vols.finished)).toEqual([]);
    // The named volume and the bound folder's; the bound file is a copy inside its container.
    const bound = task.harbor.compose?.sidecars.flatMap((sc) => sc.mounts).find((m) => m.source && !m.file);
    expect((await left(vols.running)).sort()).toEqual(
      [
        'container sidecar',
        'container sidecar',
        `network ${networkNameFor(vols.running)}`,
        `volume ${volumeNameFor(vols.running, 'shared')}`,
        `volume ${volumeNameFor(vols.running, bound?.volume ?? 'none')}`,
      ].sort(),
    );
    expect(lines.join('\n')).toContain(`removed stray volume ${volumeNameFor(vols.finished, 'shared')}`);
  }, 600_000);
});
