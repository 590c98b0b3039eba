// The create options each kind of container sends the engine, as it receives them (the JSON body: a key
// whose value is undefined is not sent): one translator writes them for all three, and none may change.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import type { HarborComposeSidecar } from '@assay/benchmark';
import { createContainerOnce } from '../src/container-create-options.js';
import { buildAgentCreateOptions, type AgentContainerRequest } from '../src/run-agent-container.js';
import { buildHarborCreateOptions, type HarborContainerSpec } from '../src/harbor/harbor-container.js';
import { buildSidecarCreateOptions, type SidecarArgs } from '../src/harbor/harbor-sidecars.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-create-options-'));
fs.mkdirSync(path.join(tmp, 'trial'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** As sent: JSON, with the test's temporary folder named `<tmp>`. */
const sent = (options: object): unknown => JSON.parse(JSON.stringify(options).replaceAll(tmp, '<tmp>'));

const agentRequest = (over: Partial<AgentContainerRequest> = {}): AgentContainerRequest => ({
  workflowId: 'assay-trial:job-1:task-a:1',
  labels: { 'assay.job': 'job-1', 'assay.role': 'agent' },
  server: { address: 'localhost:7233', namespace: 'default' },
  plan: {
    image: 'assay/agent:1',
    cmd: ['/bin/sh', '-c', 'run-agent'],
    env: { SHARED: 'plan', PLAN_ONLY: 'p' },
    binds: ['/host/session:/session'],
    readOnlyRoot: false,
  },
  workspace: path.join(tmp, 'trial', 'workspace'),
  instructionDir: path.join(tmp, 'trial', 'instruction'),
  env: { ASSAY_INSTRUCTION_FILE: '/assay/instruction.md', SHARED: 'request' },
  limits: { agentSeconds: 600 },
  resources: { cpus: 1.5, memoryGiB: 2.5, pids: 512, network: 'none' },
  ...over,
});

const harborSpec = (over: Partial<HarborContainerSpec> = {}): HarborContainerSpec => ({
  runId: 'assay-trial:job-1:task-h:1',
  workflowId: 'assay-trial:job-1:task-h:1',
  image: 'harbor-task-h:abc',
  cmd: ['bash', '-lc', 'solve.sh'],
  env: { TASK_VAR: 'x', EMPTY: '' },
  binds: ['/host/logs:/logs/agent'],
  labels: { 'assay.job': 'job-1', 'assay.role': 'agent' },
  user: null,
  workdir: null,
  seconds: 900,
  cpus: 2,
  memoryGiB: 4,
  pids: 1024,
  network: 'bridge',
  ...over,
});

const sidecarArgs: SidecarArgs = {
  task: { id: 'task-h', harbor: { compose: { file: 'docker-compose.yaml' } } } as unknown as SidecarArgs['task'],
  workflowId: 'assay-trial:job-1:task-h:1',
  labels: { 'assay.job': 'job-1' },
  internal: true,
  limits: { cpus: 2, memoryGiB: 4, pids: 1024, buildSeconds: 600 },
  heartbeat: () => undefined,
};

const sidecar = (over: Partial<HarborComposeSidecar> = {}): HarborComposeSidecar => ({
  name: 'db',
  buildContext: null,
  image: 'postgres:16',
  environment: { POSTGRES_PASSWORD: 'pa$$word' },
  command: null,
  entrypoint: null,
  workingDir: null,
  user: null,
  init: false,
  dependsOn: [],
  healthcheck: null,
  mounts: [],
  cpus: null,
  memoryMb: null,
  ...over,
});

describe("assay's agent container", () => {
  it('without network: NetworkDisabled, the loopback hosts file bound, the command past the entrypoint', () => {
    expect(sent(buildAgentCreateOptions('assay-agent', agentRequest()))).toMatchInlineSnapshot(`
      {
        "Cmd": [
          "/bin/sh",
          "-c",
          "run-agent",
        ],
        "Entrypoint": [],
        "Env": [
          "ASSAY_INSTRUCTION_FILE=/assay/instruction.md",
          "SHARED=request",
          "SHARED=plan",
          "PLAN_ONLY=p",
        ],
        "HostConfig": {
          "AutoRemove": false,
          "Binds": [
            "<tmp>/trial/workspace:/workspace",
            "<tmp>/trial/instruction:/assay:ro",
            "<tmp>/trial/.hosts:/etc/hosts:ro",
            "/host/session:/session",
          ],
          "Init": true,
          "Memory": 2684354560,
          "NanoCpus": 1500000000,
          "PidsLimit": 512,
          "ReadonlyRootfs": false,
          "SecurityOpt": [
            "no-new-privileges",
          ],
        },
        "Image": "assay/agent:1",
        "Labels": {
          "assay.job": "job-1",
          "assay.managed": "true",
          "assay.role": "agent",
          "assay.temporal-address": "localhost:7233",
          "assay.temporal-namespace": "default",
          "assay.workflow-id": "assay-trial:job-1:task-a:1",
        },
        "NetworkDisabled": true,
        "WorkingDir": "/workspace",
        "name": "assay-agent",
      }
    `);
  });

  it('on a named network with a read-only root and the image’s own command', () => {
    const req = agentRequest({
      resources: { cpus: 0.5, memoryGiB: 0.25, pids: 64, network: 'bridge' },
      plan: { image: 'assay/scripted:1', cmd: [], env: {}, binds: [], readOnlyRoot: true },
    });
    const { server: _server, ...noServer } = req;
    expect(sent(buildAgentCreateOptions('assay-agent', noServer))).toMatchInlineSnapshot(`
      {
        "Env": [
          "ASSAY_INSTRUCTION_FILE=/assay/instruction.md",
          "SHARED=request",
        ],
        "HostConfig": {
          "AutoRemove": false,
          "Binds": [
            "<tmp>/trial/workspace:/workspace",
            "<tmp>/trial/instruction:/assay:ro",
          ],
          "Init": true,
          "Memory": 268435456,
          "NanoCpus": 500000000,
          "NetworkMode": "bridge",
          "PidsLimit": 64,
          "ReadonlyRootfs": true,
          "SecurityOpt": [
            "no-new-privileges",
          ],
          "Tmpfs": {
            "/tmp": "rw,size=256m",
          },
        },
        "Image": "assay/scripted:1",
        "Labels": {
          "assay.job": "job-1",
          "assay.managed": "true",
          "assay.role": "agent",
          "assay.workflow-id": "assay-trial:job-1:task-a:1",
        },
        "WorkingDir": "/workspace",
        "name": "assay-agent",
      }
    `);
  });
});

describe("a Harbor trial's container", () => {
  it('with the image’s user and working directory, on a network without aliases', () => {
    expect(sent(buildHarborCreateOptions(harborSpec()))).toMatchInlineSnapshot(`
      {
        "Cmd": [
          "bash",
          "-lc",
          "solve.sh",
        ],
        "Entrypoint": [],
        "Env": [
          "TASK_VAR=x",
          "EMPTY=",
        ],
        "HostConfig": {
          "AutoRemove": false,
          "Binds": [
            "/host/logs:/logs/agent",
          ],
          "Init": true,
          "Memory": 4294967296,
          "NanoCpus": 2000000000,
          "NetworkMode": "bridge",
          "PidsLimit": 1024,
          "SecurityOpt": [
            "no-new-privileges",
          ],
        },
        "Image": "harbor-task-h:abc",
        "Labels": {
          "assay.job": "job-1",
          "assay.managed": "true",
          "assay.role": "agent",
          "assay.workflow-id": "assay-trial:job-1:task-h:1",
        },
        "name": "assay-26f974359a085b2f894cae3b",
      }
    `);
  });

  it('as a user, in a working directory, as `main` on a compose trial’s network', () => {
    const spec = harborSpec({ user: '', workdir: '/app', network: 'assay-net-1', aliases: ['main'] });
    expect(sent(buildHarborCreateOptions(spec))).toMatchInlineSnapshot(`
      {
        "Cmd": [
          "bash",
          "-lc",
          "solve.sh",
        ],
        "Entrypoint": [],
        "Env": [
          "TASK_VAR=x",
          "EMPTY=",
        ],
        "HostConfig": {
          "AutoRemove": false,
          "Binds": [
            "/host/logs:/logs/agent",
          ],
          "Init": true,
          "Memory": 4294967296,
          "NanoCpus": 2000000000,
          "NetworkMode": "assay-net-1",
          "PidsLimit": 1024,
          "SecurityOpt": [
            "no-new-privileges",
          ],
        },
        "Image": "harbor-task-h:abc",
        "Labels": {
          "assay.job": "job-1",
          "assay.managed": "true",
          "assay.role": "agent",
          "assay.workflow-id": "assay-trial:job-1:task-h:1",
        },
        "NetworkingConfig": {
          "EndpointsConfig": {
            "assay-net-1": {
              "Aliases": [
                "main",
              ],
            },
          },
        },
        "User": "",
        "WorkingDir": "/app",
        "name": "assay-26f974359a085b2f894cae3b",
      }
    `);
  });
});

describe('a compose sidecar', () => {
  it('with nothing but an image: the trial’s limits, its alias on the trial network', () => {
    expect(sent(buildSidecarCreateOptions(sidecarArgs, sidecar(), 'postgres:16', 'assay-net-1', 'assay-db')))
      .toMatchInlineSnapshot(`
      {
        "Env": [
          "POSTGRES_PASSWORD=pa$word",
        ],
        "HostConfig": {
          "AutoRemove": false,
          "Init": false,
          "Memory": 4294967296,
          "Mounts": [],
          "NanoCpus": 2000000000,
          "NetworkMode": "assay-net-1",
          "PidsLimit": 1024,
          "SecurityOpt": [
            "no-new-privileges",
          ],
        },
        "Image": "postgres:16",
        "Labels": {
          "assay.compose-service": "db",
          "assay.job": "job-1",
          "assay.managed": "true",
          "assay.role": "sidecar",
          "assay.workflow-id": "assay-trial:job-1:task-h:1",
        },
        "NetworkingConfig": {
          "EndpointsConfig": {
            "assay-net-1": {
              "Aliases": [
                "db",
              ],
            },
          },
        },
        "name": "assay-db",
      }
    `);
  });

  it('with its own command, entrypoint, user, limits under the trial’s, a healthcheck and volumes', () => {
    const s = sidecar({
      command: [],
      entrypoint: ['docker-entrypoint.sh'],
      workingDir: '/srv',
      user: 'postgres',
      init: true,
      healthcheck: {
        test: ['CMD-SHELL', 'pg_isready'],
        intervalSec: 1.5,
        timeoutSec: 2,
        retries: 3,
        startPeriodSec: 0,
      },
      mounts: [
        { volume: 'data', target: '/var/lib/postgresql/data', readOnly: false, source: null, file: false },
        { volume: 'bind-1', target: '/etc/conf.d', readOnly: true, source: '/task/environment/conf', file: false },
        { volume: 'bind-2', target: '/etc/one.conf', readOnly: true, source: '/task/environment/one.conf', file: true },
      ],
      cpus: 8,
      memoryMb: 512,
    });
    expect(sent(buildSidecarCreateOptions(sidecarArgs, s, 'postgres:16', 'assay-net-1', 'assay-db')))
      .toMatchInlineSnapshot(`
      {
        "Cmd": [],
        "Entrypoint": [
          "docker-entrypoint.sh",
        ],
        "Env": [
          "POSTGRES_PASSWORD=pa$word",
        ],
        "Healthcheck": {
          "Interval": 1500000000,
          "Retries": 3,
          "StartPeriod": 0,
          "Test": [
            "CMD-SHELL",
            "pg_isready",
          ],
          "Timeout": 2000000000,
        },
        "HostConfig": {
          "AutoRemove": false,
          "Init": true,
          "Memory": 536870912,
          "Mounts": [
            {
              "ReadOnly": false,
              "Source": "assay-vol-26f974359a085b2f894cae3b-data",
              "Target": "/var/lib/postgresql/data",
              "Type": "volume",
            },
            {
              "ReadOnly": true,
              "Source": "assay-vol-26f974359a085b2f894cae3b-bind-1",
              "Target": "/etc/conf.d",
              "Type": "volume",
            },
          ],
          "NanoCpus": 2000000000,
          "NetworkMode": "assay-net-1",
          "PidsLimit": 1024,
          "SecurityOpt": [
            "no-new-privileges",
          ],
        },
        "Image": "postgres:16",
        "Labels": {
          "assay.compose-service": "db",
          "assay.job": "job-1",
          "assay.managed": "true",
          "assay.role": "sidecar",
          "assay.workflow-id": "assay-trial:job-1:task-h:1",
        },
        "NetworkingConfig": {
          "EndpointsConfig": {
            "assay-net-1": {
              "Aliases": [
                "db",
              ],
            },
          },
        },
        "User": "postgres",
        "WorkingDir": "/srv",
        "name": "assay-db",
      }
    `);
  });
});

describe('creating a container once', () => {
  const engine = (fail: { statusCode: number } | null) => {
    const made = { id: 'made-now' };
    const found: string[] = [];
    const docker = {
      createContainer: async () => {
        if (fail) throw Object.assign(new Error('engine says no'), fail);
        return made;
      },
      getContainer: (name: string) => {
        found.push(name);
        return { id: name };
      },
    } as unknown as Docker;
    return { docker, made, found };
  };
  const options = { name: 'assay-run', Image: 'img' };

  it('creates it; a name taken (409: another attempt made it) gives that container; any other error throws', async () => {
    const fresh = engine(null);
    expect(await createContainerOnce(fresh.docker, options)).toEqual({ container: fresh.made, created: true });
    const taken = engine({ statusCode: 409 });
    expect(await createContainerOnce(taken.docker, options)).toEqual({
      container: { id: 'assay-run' },
      created: false,
    });
    expect(taken.found).toEqual(['assay-run']);
    await expect(createContainerOnce(engine({ statusCode: 500 }).docker, options)).rejects.toThrow('engine says no');
  });
});
