// The work volume's commands run from a small helper process, not forked from the worker: the
// output and failures as execFile gave them, several at once, and a process that is done with
// them still exits on its own.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CommandFailed, runCommand } from '../src/run-command.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const helperAvailable = fs.existsSync('/usr/bin/python3');

describe.skipIf(!helperAvailable)('runCommand', () => {
  it('runs the command in the helper, not as a child of this process', async () => {
    const { stdout } = await runCommand('sh', ['-c', 'echo $PPID']);
    const parent = Number(stdout.trim());
    expect(parent).not.toBe(process.pid);
    expect(fs.readFileSync(`/proc/${parent}/cmdline`, 'utf8').split('\0')[0]).toBe('/usr/bin/python3');
    const helperParent = Number(/^PPid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${parent}/status`, 'utf8'))![1]);
    expect(helperParent).toBe(process.pid);
  });

  it('gives output, and a failure with its exit code and stderr', async () => {
    await expect(runCommand('printf', ['%s|%s', 'a b', '$HOME'])).resolves.toEqual({ stdout: 'a b|$HOME', stderr: '' });
    const failed = await runCommand('sh', ['-c', 'echo no space >&2; exit 3']).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(CommandFailed);
    expect(failed).toMatchObject({ code: 3, stderr: 'no space\n' });
    await expect(runCommand('/nonexistent/mount', [])).rejects.toThrow(/No such file/);
  });

  it('runs commands at once, not one after another', async () => {
    const t0 = Date.now();
    await Promise.all(Array.from({ length: 4 }, () => runCommand('sleep', ['1'])));
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it('does not keep a process that has finished with it alive', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-run-command-'));
    const script = path.join(dir, 'once.mts');
    const module = path.join(ROOT, 'activities/src/run-command.ts');
    fs.writeFileSync(
      script,
      `import { runCommand } from ${JSON.stringify(module)};\nconsole.log((await runCommand('echo', ['ran'])).stdout.trim());\n`,
    );
    const out = spawnSync(process.execPath, ['--import', 'tsx', script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 20_000,
    });
    fs.rmSync(dir, { recursive: true, force: true });
    expect([out.status, out.signal, out.stdout.trim()]).toEqual([0, null, 'ran']);
  });
});
