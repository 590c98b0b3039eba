// Debian packages through apt-get: one `apt-get update` per process, then a quiet install.
import os from 'node:os';
import path from 'node:path';
import { messages } from './messages.js';
import { logsDir } from './paths.js';
import { isRoot, run, runLogged, type Log } from './run.js';

let updated = false;

export interface AptOptions {
  log: Log;
  /** Project root, for the log file; defaults to a temp folder. */
  root?: string;
  noRecommends?: boolean;
}

/** True when dpkg reports the package as installed. */
export async function debInstalled(pkg: string): Promise<boolean> {
  const r = await run('dpkg-query', ['-W', '-f=${Status}', pkg]).catch(() => undefined);
  return !!r && r.code === 0 && r.stdout.includes('install ok installed');
}

export async function aptInstall(packages: readonly string[], opts: AptOptions): Promise<void> {
  const missing: string[] = [];
  for (const p of packages) if (!(await debInstalled(p))) missing.push(p);
  if (missing.length === 0) {
    opts.log(`apt: already installed: ${packages.join(' ')}`);
    return;
  }
  if (!isRoot()) throw new Error(messages.needRootForApt(missing));
  const logFile = path.join(opts.root ? logsDir(opts.root) : os.tmpdir(), 'apt.log');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Wait for another apt/dpkg run (another helper, a CI step) instead of failing on its lock.
  const wait = ['-o', 'DPkg::Lock::Timeout=600'];
  if (!updated) {
    opts.log('apt: apt-get update');
    await runLogged('apt-get', [...wait, 'update'], { log: opts.log, logFile, env });
    updated = true;
  }
  opts.log(`apt: installing ${missing.join(' ')} (log: ${logFile})`);
  const args = [...wait, 'install', '-y', '-q', ...(opts.noRecommends ? ['--no-install-recommends'] : []), ...missing];
  await runLogged('apt-get', args, { log: opts.log, logFile, env });
}
