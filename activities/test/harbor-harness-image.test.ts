// A model CLI's image on a Harbor task whose Dockerfile ends in `USER someone`: the harness chain installs as
// root (as Harbor installs its agents), and the final image gives back the task's USER and working directory.
// Real `docker build`s on the offline base image; the chain is a stand-in that installs into /usr/local as
// the npm CLIs' recipe does (the real chain needs the npm registry: test/harbor-harness.test.ts covers it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureImage } from '@assay/infra';
import { ensureHarborHarnessImage, isRootUser, type BuildChain } from '../src/harbor/harbor-harness-image.js';
import { checkDockerReady } from '../../test/support/docker-ready.js';
import { runContainer } from '../../test/support/run-container.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const docker = new Docker();
const dockerReady = await checkDockerReady(docker);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-harbor-user-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function dockerfileDir(name: string, lines: string[]): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'Dockerfile'), `${lines.join('\n')}\n`);
  return dir;
}

/**
 * Like the npm-cli recipe: installs a command under /usr/local (root only), writes its version (as `--version`
 * would print it, with a second line) to /opt/assay-harness-version, ends in WORKDIR /workspace.
 */
const bases: string[] = [];
const standInChain: BuildChain = async ({ baseImage }) => {
  bases.push(baseImage);
  const dir = dockerfileDir('chain', [
    'ARG BASE_IMAGE',
    'FROM ${BASE_IMAGE}',
    `RUN printf '#!/bin/sh\\necho "fake-cli as $(id -un) in $(pwd)"\\n' > /usr/local/bin/fake-cli && chmod 755 /usr/local/bin/fake-cli`,
    `RUN printf 'fake-cli 0.4.2 (build %s)\\nsecond line\\n' "$(date +%s%N)" > /opt/assay-harness-version`,
    'WORKDIR /workspace',
  ]);
  return ensureImage({
    root: ROOT,
    name: 'test-harbor-chain',
    dockerfileDir: dir,
    buildArgs: { BASE_IMAGE: baseImage },
  });
};

describe('isRootUser', () => {
  it('knows root by name, uid and with a group; anyone else is not', () => {
    expect([null, 'root', '0', '0:0', 'root:staff'].map(isRootUser)).toEqual([true, true, true, true, true]);
    expect(['someone', '1000', '1000:0', 'rooter'].map(isRootUser)).toEqual([false, false, false, false]);
  });
});

describe.skipIf(!dockerReady)('a harness image on a task image whose USER is not root', () => {
  it("installs the chain as root, then gives back the task's USER and working directory", async () => {
    const task = await ensureImage({
      root: ROOT,
      name: 'test-harbor-user-task',
      dockerfileDir: dockerfileDir('task', [
        'FROM assay/base:bookworm',
        'RUN useradd -m -u 4321 someone && mkdir -p /home/someone/work && chown someone /home/someone/work',
        'USER someone',
        'WORKDIR /home/someone/work',
      ]),
    });
    const image = await ensureHarborHarnessImage(
      docker,
      { taskImage: task.tag, harness: 'codex', workdir: null, configFile: 'task.toml' },
      standInChain,
    );
    expect(image).toMatchObject({ workdir: '/home/someone/work', imageUser: 'someone' });
    const config = (await docker.getImage(image.tag).inspect()).Config;
    expect([config.User, config.WorkingDir]).toEqual(['someone', '/home/someone/work']);
    // The CLI runs as the task's user in its working directory, which /workspace names, and may write there.
    const { out } = await runContainer(docker, image.tag, [
      'sh',
      '-c',
      'fake-cli; readlink /workspace; touch /workspace/x && echo wrote',
    ]);
    expect(out.trim().split('\n')).toEqual([
      'fake-cli as someone in /home/someone/work',
      '/home/someone/work',
      'wrote',
    ]);
    // The chain was built on a root layer over the task image, not on the task image itself.
    const taskId = (await docker.getImage(task.tag).inspect()).Id;
    expect(bases.at(-1)).toMatch(/^assay\/harbor-as-root:/);
    expect((await docker.getImage(bases.at(-1)!).inspect()).Config.User).toBe('root');
    expect(bases.at(-1)).not.toBe(taskId);
    // The CLI's version as the image carries it: the file's first line, read without running anything.
    const version = await runContainer(docker, image.tag, ['head', '-n1', '/opt/assay-harness-version']);
    expect(version.out.trim()).toMatch(/^fake-cli 0\.4\.2 \(build \d+\)$/);
    expect(image.harnessVersion).toBe(version.out.trim());
  }, 300_000);

  it('builds the chain straight on a root task image (no extra layer)', async () => {
    const task = await ensureImage({
      root: ROOT,
      name: 'test-harbor-root-task',
      dockerfileDir: dockerfileDir('root-task', ['FROM assay/base:bookworm', 'WORKDIR /app']),
    });
    const image = await ensureHarborHarnessImage(
      docker,
      { taskImage: task.tag, harness: 'codex', workdir: null, configFile: 'task.toml' },
      standInChain,
    );
    expect(bases.at(-1)).toBe((await docker.getImage(task.tag).inspect()).Id);
    expect((await runContainer(docker, image.tag, ['fake-cli'])).out.trim()).toBe('fake-cli as root in /app');
  }, 300_000);
});
