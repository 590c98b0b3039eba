// An agent container on an image with its own ENTRYPOINT: a harness that gives a command line
// (model CLIs, `command`) runs it as given; a harness that gives none (scripted agents) runs the image's.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureImage } from '@assay/infra';
import { runAgentContainer } from '../src/run-agent-container.js';
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
): Promise<{ logs: string; workspace: string; exitCode: number | null }> {
  const workspace = fs.mkdtempSync(path.join(tmp, 'ws-'));
  const result = await runAgentContainer(
    docker,
    {
      workflowId: `assay-trial:entrypoint-${randomUUID()}`,
      labels: {},
      plan: { image, cmd, env: {}, binds: [], readOnlyRoot: false },
      workspace,
      instructionDir: workspace,
      env: {},
      limits: { agentSeconds: 60 },
      resources: { cpus: 0.5, memoryGiB: 0.25, pids: 64, network: 'none' },
    },
    TEST_WAIT_HOOKS,
  );
  return { logs: result.logs, workspace, exitCode: result.exitCode };
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

    const own = await runOn(image, []);
    expect(own.exitCode).toBe(0);
    expect(own.logs).toContain('entrypoint-ran');
  }, 120_000);
});
