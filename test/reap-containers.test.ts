// The worker's start-up reaper on a Docker engine shared by several Temporal servers: agent
// containers (made by runAgentContainer, as activities make them) carry their server's address and
// namespace, and a worker removes only its own server's containers whose workflow is not running.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import {
  LABEL_MANAGED,
  LABEL_TEMPORAL_ADDRESS,
  LABEL_TEMPORAL_NAMESPACE,
  containerNameFor,
  reapContainers,
  reapRelayFolders,
} from '@assay/activities';
import { runAgentContainer, type TemporalServerRef } from '../activities/src/run-agent-container.js';
import { SNAPSHOT_REPO } from '../activities/src/harbor/run-harbor-agent.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAgentImage } from './support/e2e.js';
import { TEST_WAIT_HOOKS } from './support/wait-hooks.js';

const docker = new Docker();
const run = randomUUID().slice(0, 8);
// Addresses no other worker on this machine uses, so the test reaps nothing of anyone else's.
const ours: TemporalServerRef = { address: `reaper-${run}-a:7233`, namespace: 'default' };
const otherServer: TemporalServerRef = { address: `reaper-${run}-b:7233`, namespace: 'default' };
const otherNamespace: TemporalServerRef = { address: ours.address, namespace: 'elsewhere' };
const ids = {
  finished: `assay-trial:${run}:finished`,
  running: `assay-trial:${run}:running`,
  otherServer: `assay-trial:${run}:other-server`,
  otherNamespace: `assay-trial:${run}:other-namespace`,
};
let image = '';

async function agentContainer(workflowId: string, server: TemporalServerRef): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-reap-'));
  await runAgentContainer(
    docker,
    {
      workflowId,
      labels: { 'assay.test-run': run },
      server,
      plan: { image, cmd: ['true'], env: {}, binds: [], readOnlyRoot: false },
      workspace: dir,
      instructionDir: dir,
      env: {},
      limits: { agentSeconds: 60 },
      resources: { cpus: 0.5, memoryGiB: 0.25, pids: 64, network: 'none' },
    },
    TEST_WAIT_HOOKS,
  );
}

const exists = (workflowId: string) =>
  docker
    .getContainer(containerNameFor(workflowId))
    .inspect()
    .then(
      () => true,
      () => false,
    );

beforeAll(async () => {
  image = await ensureAgentImage();
  await agentContainer(ids.finished, ours);
  await agentContainer(ids.running, ours);
  await agentContainer(ids.otherServer, otherServer);
  await agentContainer(ids.otherNamespace, otherNamespace);
  // Harbor snapshots: a committed container keeps its labels (workflow, server), as a trial's snapshot does.
  for (const which of ['finished', 'running', 'otherServer'] as const)
    await docker.getContainer(containerNameFor(ids[which])).commit({ repo: SNAPSHOT_REPO, tag: snapshotTag(which) });
}, 120_000);

afterAll(async () => {
  const left = await docker.listContainers({ all: true, filters: { label: [`assay.test-run=${run}`] } });
  await Promise.all(left.map((c) => docker.getContainer(c.Id).remove({ force: true })));
  for (const which of ['finished', 'running', 'otherServer'])
    await docker
      .getImage(`${SNAPSHOT_REPO}:${snapshotTag(which)}`)
      .remove({ force: true })
      .catch(() => undefined);
});

const snapshotTag = (which: string) => `reap-${run}-${which.toLowerCase()}`;
const imageExists = (which: string) =>
  docker
    .getImage(`${SNAPSHOT_REPO}:${snapshotTag(which)}`)
    .inspect()
    .then(
      () => true,
      () => false,
    );

describe('reapContainers', () => {
  it('labels agent containers with their Temporal server and namespace', async () => {
    const info = await docker.getContainer(containerNameFor(ids.finished)).inspect();
    expect(info.Config.Labels[LABEL_TEMPORAL_ADDRESS]).toBe(ours.address);
    expect(info.Config.Labels[LABEL_TEMPORAL_NAMESPACE]).toBe('default');
  });

  it("removes only its own server's containers whose workflow is not running", async () => {
    const asked: string[] = [];
    const lines: string[] = [];
    const removed = await reapContainers(
      docker,
      ours,
      async (workflowId) => {
        asked.push(workflowId);
        return workflowId === ids.running;
      },
      (l) => lines.push(l),
    );
    // The other server's and the other namespace's workflows are never even looked up on ours.
    expect([...new Set(asked)].sort()).toEqual([ids.finished, ids.running].sort());
    expect(removed).toEqual([`/${containerNameFor(ids.finished)}`, `${SNAPSHOT_REPO}:${snapshotTag('finished')}`]);
    // The finished workflow's snapshot goes; the running one's and another server's stay.
    expect(await imageExists('finished')).toBe(false);
    expect(await imageExists('running')).toBe(true);
    expect(await imageExists('otherServer')).toBe(true);
    expect(await exists(ids.finished)).toBe(false);
    for (const kept of [ids.running, ids.otherServer, ids.otherNamespace]) expect(await exists(kept)).toBe(true);
    expect(lines[0]).toContain(`removed stray container /${containerNameFor(ids.finished)}`);
  }, 60_000);
});

// A killed worker leaves its model CLI run's relay folder in the temporary folder; the next worker start
// removes one no container binds, once it is an hour old.
describe('reapRelayFolders', () => {
  it('removes an old folder no container binds, and keeps a bound one and a fresh one', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'assay-relay-reap-'));
    const dirs = Object.fromEntries(['stray', 'bound', 'fresh'].map((n) => [n, path.join(root, n)]));
    for (const dir of Object.values(dirs)) mkdirSync(dir);
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    for (const n of ['stray', 'bound']) utimesSync(dirs[n]!, twoHoursAgo, twoHoursAgo);
    // Created, never started: as a run's container is between its creation and its start.
    await docker.createContainer({
      Image: image,
      Cmd: ['true'],
      Labels: { [LABEL_MANAGED]: 'true', 'assay.test-run': run },
      HostConfig: { Binds: [`${dirs.bound}:/assay-relay:ro`], NetworkMode: 'none' },
    });
    const lines: string[] = [];
    const removed = await reapRelayFolders(docker, (l) => lines.push(l), { root });
    expect(removed).toEqual([dirs.stray]);
    expect(lines).toEqual([`removed stray model proxy relay folder ${dirs.stray} (no container uses it)`]);
    expect([existsSync(dirs.stray!), existsSync(dirs.bound!), existsSync(dirs.fresh!)]).toEqual([false, true, true]);
  }, 60_000);
});
