// A Temporal dev server exactly as `temporal server start-dev` makes it: 24 h retention and no
// custom search attributes (unlike the one assay starts, which it configures), for the preflight tests.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureTemporalCli, freePort, tcpAnswers } from '@assay/infra';
import { ROOT } from './e2e.js';

export interface BareTemporal {
  address: string;
  pid: number;
  stop: () => Promise<void>;
}

/**
 * `extraArgs` e.g. ['--search-attribute', 'AssaySystem=Int'] to pre-register attributes.
 * start-dev picks its HTTP, metrics and membership ports by probing, so a start racing another
 * process for a port can panic on launch (temporalio/cli#667): such a start is tried again.
 */
export async function startBareTemporal(extraArgs: string[] = []): Promise<BareTemporal> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(extraArgs);
    } catch (e) {
      if (!(e instanceof ExitedEarly) || attempt === 3) throw e;
    }
  }
}

class ExitedEarly extends Error {}

async function startOnce(extraArgs: string[]): Promise<BareTemporal> {
  const binary = await ensureTemporalCli({ root: ROOT });
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-bare-temporal-'));
  const args = ['server', 'start-dev', '--headless', '--ip', '127.0.0.1', '--port', String(port)];
  const child = spawn(binary, [...args, '--db-filename', path.join(dir, 'db.sqlite'), ...extraArgs], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  while (!(await tcpAnswers('127.0.0.1', port, 300))) {
    if (child.exitCode !== null) {
      rmSync(dir, { recursive: true, force: true });
      throw new ExitedEarly(`temporal server start-dev exited: ${stderr.trim()}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`temporal server start-dev did not listen on ${port} within 60 s: ${stderr.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  // The frontend listens a moment before the default namespace is served.
  await new Promise((r) => setTimeout(r, 1500));
  return { address: `127.0.0.1:${port}`, pid: child.pid ?? 0, stop };
}
