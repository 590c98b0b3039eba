// An agent container on an image with its own ENTRYPOINT: a harness that gives a command line
// (model CLIs, `command`) runs it as given; a harness that gives none (scripted agents) runs the image's.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { baseImageTag, ensureImage } from '@assay/infra';
import {
  containerNameFor,
  FinishedElsewhere,
  removeContainer,
  removeContainerLater,
  removeContainerSoon,
  runAgentContainer,
  settleContainerRemovals,
  type WaitHooks,
} from '../src/run-agent-container.js';
import { checkDockerReady } from '../../test/support/docker-ready.js';
import { TEST_WAIT_HOOKS } from '../../test/support/wait-hooks.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const docker = new Docker();
const dockerReady = await checkDockerReady(docker);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-entrypoint-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function runOn(
  image: string,
  cmd: string[],
  network: 'none' | 'host' = 'none',
  workflowId = `assay-trial:entrypoint-${randomUUID()}`,
  opts: { createFirst?: boolean; hooks?: WaitHooks; workspace?: string } = {},
): Promise<{
  logs: string;
  workspace: string;
  exitCode: number | null;
  reattached: boolean;
  image: { id: string; tag: string } | null;
}> {
  const workspace = opts.workspace ?? fs.mkdtempSync(path.join(tmp, 'ws-'));
  const result = await runAgentContainer(
    docker,
    {
      workflowId,
      labels: {},
      plan: { image, cmd, env: {}, binds: [], readOnlyRoot: false },
      workspace,
      instructionDir: workspace,
      env: {},
      limits: { agentSeconds: 60 },
      resources: { cpus: 0.5, memoryGiB: 0.25, pids: 64, network },
      ...(opts.createFirst ? { createFirst: true } : {}),
    },
    opts.hooks ?? TEST_WAIT_HOOKS,
  );
  return {
    logs: result.logs,
    workspace,
    exitCode: result.exitCode,
    reattached: result.reattached,
    image: result.image,
  };
}

describe.skipIf(!dockerReady)('an agent container on an image with an ENTRYPOINT', () => {
  let image = '';
  it('runs a given command line past the entrypoint, and the image’s own command without one', async () => {
    const dir = path.join(tmp, 'image');
    fs.mkdirSync(dir);
    fs.writeFileSync(
      path.join(dir, 'Dockerfile'),
      ['ARG BASE_IMAGE', 'FROM ${BASE_IMAGE}', 'ENTRYPOINT ["/bin/echo", "entrypoint-ran"]', ''].join('\n'),
    );
    image = (await ensureImage({ root: ROOT, name: 'test-entrypoint', dockerfileDir: dir })).tag;

    const given = await runOn(image, ['/bin/sh', '-c', 'echo shell-ran > /workspace/out.txt']);
    expect(given.exitCode).toBe(0);
    expect(given.logs).not.toContain('entrypoint-ran');
    expect(fs.readFileSync(path.join(given.workspace, 'out.txt'), 'utf8').trim()).toBe('shell-ran');
    // The image the container ran, as the engine names it: the id of the tag it was created from.
    expect(given.image).toEqual({ id: (await docker.getImage(image).inspect()).Id, tag: image });
    expect(given.image?.id).toMatch(/^sha256:[0-9a-f]{64}$/);

    const own = await runOn(image, []);
    expect(own.exitCode).toBe(0);
    expect(own.logs).toContain('entrypoint-ran');
  }, 120_000);
});

// Network none is created with NetworkDisabled (no engine network sandbox): the agent must still get a
// network namespace of its own with only loopback, and a localhost that resolves.
describe.skipIf(!dockerReady)('an agent container without network', () => {
  // The relay of a model CLI (proxy-relay.ts) listens on loopback: it must be up, not only present.
  const loopback =
    "python3 -c \"import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(); socket.create_connection(s.getsockname()); print('loopback up')\"";
  const probe = [
    '/bin/sh',
    '-c',
    `readlink /proc/self/ns/net; tail -n +3 /proc/net/dev | cut -d: -f1; getent hosts localhost; ${loopback}`,
  ];

  it('has its own network namespace with only loopback, and localhost resolves', async () => {
    const { logs, exitCode } = await runOn(baseImageTag(), probe);
    expect(exitCode).toBe(0);
    const [netns, ...rest] = logs
      .trim()
      .split('\n')
      .map((l) => l.trim());
    expect(netns).toMatch(/^net:\[\d+\]$/);
    expect(netns).not.toBe(fs.readlinkSync('/proc/self/ns/net'));
    expect(rest.filter((l) => !l.includes('localhost') && l !== 'loopback up')).toEqual(['lo']);
    expect(rest).toContain('loopback up');
    expect(rest.some((l) => /^(127\.0\.0\.1|::1)\s+localhost/.test(l))).toBe(true);
  }, 60_000);

  it('the probe tells the host network apart (so the test above can fail)', async () => {
    const { logs } = await runOn(baseImageTag(), probe, 'host');
    expect(logs.trim().split('\n')[0]).toBe(fs.readlinkSync('/proc/self/ns/net'));
  }, 60_000);
});

// runAgent removes its exited container in the background: a run of the same workflow id right after
// must get a fresh container, never re-attach to the finished one that is still being removed.
describe.skipIf(!dockerReady)('an agent container removed in the background', () => {
  it('is gone before the next run of its name starts, and removeContainer waits for it', async () => {
    const workflowId = `assay-trial:removal-${randomUUID()}`;
    const first = await runOn(baseImageTag(), ['/bin/sh', '-c', 'echo first'], 'none', workflowId);
    expect(first.logs.trim()).toBe('first');
    removeContainerLater(docker, workflowId);
    const second = await runOn(baseImageTag(), ['/bin/sh', '-c', 'echo second'], 'none', workflowId);
    expect(second.reattached).toBe(false);
    expect(second.logs.trim()).toBe('second');
    removeContainerLater(docker, workflowId);
    await removeContainer(docker, workflowId);
    const gone = await docker
      .getContainer(containerNameFor(workflowId))
      .inspect()
      .then(
        () => false,
        (err: { statusCode?: number }) => err.statusCode === 404,
      );
    expect(gone).toBe(true);
  }, 60_000);
});

// A trial's end does not wait for its agent container's removal; a worker settles what is under way
// before it exits, and a trial whose agent ran on a worker that died starts one itself.
describe.skipIf(!dockerReady)('an agent container removed at the end of a trial', () => {
  const gone = (workflowId: string) =>
    docker
      .getContainer(containerNameFor(workflowId))
      .inspect()
      .then(
        () => false,
        (err: { statusCode?: number }) => err.statusCode === 404,
      );
  it('is gone once the worker settles its removals, whether or not the agent run started one', async () => {
    const afterAgent = `assay-trial:soon-${randomUUID()}`;
    const deadWorkers = `assay-trial:soon-${randomUUID()}`;
    await runOn(baseImageTag(), ['/bin/sh', '-c', 'true'], 'none', afterAgent);
    await runOn(baseImageTag(), ['/bin/sh', '-c', 'true'], 'none', deadWorkers);
    removeContainerLater(docker, afterAgent); // as runHarness does once the agent's result is in
    removeContainerSoon(docker, afterAgent);
    removeContainerSoon(docker, deadWorkers); // no removal under way in this process: it starts one
    await settleContainerRemovals();
    expect([await gone(afterAgent), await gone(deadWorkers)]).toEqual([true, true]);
  }, 60_000);
});

// runHarness creates its container before looking for one (createFirst): a name already taken by an
// earlier attempt's container must still re-attach to it, and a run another attempt finished must
// never start a second agent.
describe.skipIf(!dockerReady)('an agent container created before it is looked for', () => {
  it('runs fresh, re-attaches to a running one of its name, and starts none when the run finished elsewhere', async () => {
    const fresh = await runOn(baseImageTag(), ['/bin/sh', '-c', 'echo fresh'], 'none', undefined, {
      createFirst: true,
    });
    expect([fresh.reattached, fresh.exitCode, fresh.logs.trim()]).toEqual([false, 0, 'fresh']);

    const workflowId = `assay-trial:create-first-${randomUUID()}`;
    const earlier = runOn(baseImageTag(), ['/bin/sh', '-c', 'sleep 2; echo earlier'], 'none', workflowId);
    while (!(await docker.listContainers({ filters: { name: [containerNameFor(workflowId)] } })).length)
      await new Promise((r) => setTimeout(r, 100));
    const retry = await runOn(baseImageTag(), ['/bin/sh', '-c', 'echo second'], 'none', workflowId, {
      createFirst: true,
    });
    expect([retry.reattached, retry.logs.trim()]).toEqual([true, 'earlier']);
    expect((await earlier).logs.trim()).toBe('earlier');
    await removeContainer(docker, workflowId);

    const finished = `assay-trial:create-first-${randomUUID()}`;
    const workspace = fs.mkdtempSync(path.join(tmp, 'ws-'));
    const hooks = { ...TEST_WAIT_HOOKS, finishedElsewhere: () => true };
    const run = runOn(baseImageTag(), ['/bin/sh', '-c', 'echo ran > /workspace/out.txt'], 'none', finished, {
      createFirst: true,
      hooks,
      workspace,
    });
    await expect(run).rejects.toBeInstanceOf(FinishedElsewhere);
    await new Promise((r) => setTimeout(r, 500));
    expect(fs.existsSync(path.join(workspace, 'out.txt'))).toBe(false);
    const left = await docker.listContainers({ all: true, filters: { name: [containerNameFor(finished)] } });
    expect(left).toEqual([]);
  }, 60_000);
});
