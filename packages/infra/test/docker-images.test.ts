// A real Docker engine (started if needed), the offline base image and hash-tagged image builds.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dockerClient,
  ensureBaseImage,
  ensureDocker,
  ensureImage,
  ensureScriptedAgentImage,
  pingDocker,
  scriptedAgentImageTag,
} from '../src/index.js';
import { repoRoot, testLog } from './helpers.js';

const exec = promisify(execFile);

describe('Docker engine and images', () => {
  let base = '';
  let dir = '';
  const madeTags: string[] = [];

  beforeAll(async () => {
    await ensureDocker({ root: repoRoot, log: testLog });
    base = (await ensureBaseImage({ root: repoRoot, log: testLog })).tag;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-images-'));
  });

  afterAll(async () => {
    for (const tag of madeTags)
      await dockerClient()
        .getImage(tag)
        .remove({ force: true })
        .catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('has an engine that answers, and ensureDocker is a no-op then', async () => {
    expect(await pingDocker()).toBeUndefined();
    const again = await ensureDocker({ root: repoRoot, log: testLog });
    expect(again.startedByUs).toBe(false);
    expect(again.host).toMatch(/^(unix|tcp|ssh):\/\//);
  });

  it('runs the base image offline with python3, openpyxl and python-docx', async () => {
    expect(base).toMatch(/^assay\/base:bookworm-[0-9a-f]{10}$/);
    expect((await ensureBaseImage({ root: repoRoot, log: testLog })).built).toBe(false);
    const { stdout } = await exec('docker', [
      'run',
      '--rm',
      '--network',
      'none',
      '--security-opt',
      'no-new-privileges',
      base,
      'python3',
      '-c',
      'import openpyxl, docx; print("ok", openpyxl.__version__)',
    ]);
    expect(stdout).toMatch(/^ok 3\./);
  });

  it('builds an image once per context hash and rebuilds when a source changes', async () => {
    const dockerfileDir = path.join(dir, 'image');
    const src = path.join(dir, 'src');
    fs.mkdirSync(dockerfileDir);
    fs.mkdirSync(src);
    fs.writeFileSync(
      path.join(dockerfileDir, 'Dockerfile'),
      'ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\nCOPY payload/ /opt/payload/\nCMD ["cat", "/opt/payload/hello.txt"]\n',
    );
    fs.writeFileSync(path.join(src, 'hello.txt'), `hello ${process.pid} ${Date.now()}\n`);
    fs.mkdirSync(path.join(src, '__pycache__'));
    fs.writeFileSync(path.join(src, '__pycache__', 'x.pyc'), 'ignored');
    const opts = {
      root: repoRoot,
      name: 'infra-test',
      dockerfileDir,
      sources: [{ from: src, to: 'payload' }],
      log: testLog,
    };

    const first = await ensureImage(opts);
    madeTags.push(first.tag);
    expect(first.built).toBe(true);
    expect(first.tag).toBe(`assay/infra-test:${first.hash}`);
    const second = await ensureImage(opts);
    expect(second).toMatchObject({ built: false, tag: first.tag });

    // A cache file does not count; a real change does.
    fs.writeFileSync(path.join(src, '__pycache__', 'x.pyc'), 'still ignored');
    expect((await ensureImage(opts)).built).toBe(false);
    fs.writeFileSync(path.join(src, 'hello.txt'), 'changed\n');
    const third = await ensureImage(opts);
    madeTags.push(third.tag);
    expect(third.built).toBe(true);
    expect(third.tag).not.toBe(first.tag);
    const { stdout } = await exec('docker', ['run', '--rm', '--network', 'none', third.tag]);
    expect(stdout).toBe('changed\n');
  });

  it('rebuilds an image when the image it is built FROM was rebuilt under the same name', async () => {
    // The task's base: another image, rebuilt between two runs with a changed tool (as `ubuntu:24.04` may be).
    const from = `assay-test/from-base:${process.pid}`;
    madeTags.push(from);
    const buildFrom = async (version: string) => {
      const ctx = fs.mkdtempSync(path.join(dir, 'from-'));
      fs.writeFileSync(path.join(ctx, 'Dockerfile'), `FROM ${base}\nRUN echo ${version} > /tool-version\n`);
      await exec('docker', ['build', '--network', 'none', '-q', '-t', from, ctx]);
    };
    await buildFrom('v1');
    const dockerfileDir = path.join(dir, 'on-base');
    fs.mkdirSync(dockerfileDir);
    const multiStage = `FROM ${from} AS tools\nFROM tools\nCMD ["cat", "/tool-version"]\n`;
    fs.writeFileSync(path.join(dockerfileDir, 'Dockerfile'), multiStage);
    const opts = { root: repoRoot, name: 'infra-from-test', dockerfileDir, log: testLog };
    const first = await ensureImage(opts);
    madeTags.push(first.tag);
    expect((await ensureImage(opts)).built).toBe(false);
    await buildFrom('v2');
    const second = await ensureImage(opts);
    madeTags.push(second.tag);
    expect(second.built).toBe(true);
    expect(second.tag).not.toBe(first.tag);
    const { stdout } = await exec('docker', ['run', '--rm', '--network', 'none', second.tag]);
    expect(stdout).toBe('v2\n');
  });

  it('builds the scripted-agent image from images/scripted-agent and runs its entrypoint under the container contract', async () => {
    // Use the real agent when packages/agents/scripted has it; else a stub that follows the contract.
    const real = fs.existsSync(path.join(repoRoot, 'packages/agents/scripted/assay_agent.py'));
    const sourceDir = real ? undefined : path.join(dir, 'stub-agent');
    if (sourceDir) {
      fs.mkdirSync(sourceDir);
      fs.writeFileSync(
        path.join(sourceDir, 'assay_agent.py'),
        'import os, pathlib\nout = pathlib.Path("/workspace/outputs"); out.mkdir(parents=True, exist_ok=True)\n' +
          '(out / "agent.txt").write_text(os.environ.get("ASSAY_AGENT", "") + ":" + open(os.environ["ASSAY_INSTRUCTION_FILE"]).read())\n',
      );
    }
    const opts = { root: repoRoot, log: testLog, ...(sourceDir ? { sourceDir } : {}) };
    const image = await ensureScriptedAgentImage(opts);
    if (!real) madeTags.push(image.tag);
    expect(image.tag).toMatch(/^assay\/scripted-agent:[0-9a-f]{12}$/);
    expect(await scriptedAgentImageTag(opts)).toBe(image.tag);
    expect((await ensureScriptedAgentImage(opts)).built).toBe(false);
    const info = await dockerClient().getImage(image.tag).inspect();
    expect(info.Config.Entrypoint).toEqual(['python3', '/opt/assay/assay_agent.py']);
    if (real) return;

    const workspace = path.join(dir, 'workspace');
    const assay = path.join(dir, 'assay');
    fs.mkdirSync(workspace);
    fs.mkdirSync(assay);
    fs.writeFileSync(path.join(assay, 'instruction.md'), 'Write the report.');
    await exec('docker', [
      'run',
      '--rm',
      '--network',
      'none',
      '--security-opt',
      'no-new-privileges',
      '--cpus',
      '1',
      '--memory',
      '512m',
      '--pids-limit',
      '128',
      '-v',
      `${workspace}:/workspace`,
      '-v',
      `${assay}:/assay:ro`,
      '-e',
      'ASSAY_INSTRUCTION_FILE=/assay/instruction.md',
      '-e',
      'ASSAY_AGENT=nop',
      image.tag,
    ]);
    expect(fs.readFileSync(path.join(workspace, 'outputs', 'agent.txt'), 'utf8')).toBe('nop:Write the report.');
  });
});
