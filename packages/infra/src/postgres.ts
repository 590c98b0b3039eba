// A PostgreSQL cluster of assay's own for the production Temporal server: Debian's packages,
// `initdb` into .assay/postgres/<port>/, listening on 127.0.0.1 only, password auth (scram) for
// TCP with a generated password kept in a 0600 file beside the data. Run as the `postgres` user
// when we are root (initdb refuses root).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { aptInstall } from './apt.js';
import { withLock } from './lock.js';
import { tcpAnswers } from './net.js';
import { assayDir, logsDir } from './paths.js';
import { isRoot, runChecked, type Log } from './run.js';

export interface PostgresInfo {
  host: '127.0.0.1';
  port: number;
  user: string;
  password: string;
  dataDir: string;
  logFile: string;
}

/** Where a cluster's data lives: <stateDir>/postgres/<port>, stateDir defaulting to <root>/.assay. */
function postgresDir(root: string, port: number, stateDir?: string): string {
  return path.join(stateDir ?? assayDir(root), 'postgres', String(port));
}

/** The newest PostgreSQL server installed from Debian's packages (/usr/lib/postgresql/<major>/bin). */
export function postgresBinDir(): string | undefined {
  const base = '/usr/lib/postgresql';
  const majors = fs.existsSync(base) ? fs.readdirSync(base).filter((d) => /^\d+$/.test(d)) : [];
  const newest = majors.sort((a, b) => Number(b) - Number(a))[0];
  const bin = newest ? path.join(base, newest, 'bin') : undefined;
  return bin && fs.existsSync(path.join(bin, 'initdb')) ? bin : undefined;
}

/** Installs PostgreSQL when missing, initializes the cluster once, starts it when it is not running. */
export async function ensurePostgres(opts: {
  root: string;
  port: number;
  stateDir?: string;
  log?: Log;
}): Promise<PostgresInfo> {
  const log = opts.log ?? (() => {});
  return withLock(
    opts.root,
    `postgres-${opts.port}`,
    async () => {
      if (!postgresBinDir()) await aptInstall(['postgresql'], { log, root: opts.root, noRecommends: true });
      const bin = postgresBinDir();
      if (!bin) throw new Error('PostgreSQL was installed, but no /usr/lib/postgresql/<major>/bin/initdb was found');
      const dir = postgresDir(opts.root, opts.port, opts.stateDir);
      const dataDir = path.join(dir, 'data');
      const passwordFile = path.join(dir, 'password');
      const logFile = path.join(logsDir(opts.root), `postgres-${opts.port}.log`);
      fs.mkdirSync(path.dirname(logFile), { recursive: true });
      if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) await initCluster(bin, dir, dataDir, passwordFile, log);
      const info: PostgresInfo = {
        host: '127.0.0.1',
        port: opts.port,
        user: 'postgres',
        password: fs.readFileSync(passwordFile, 'utf8').trim(),
        dataDir,
        logFile,
      };
      if (await tcpAnswers('127.0.0.1', opts.port)) {
        log(`PostgreSQL answers on 127.0.0.1:${opts.port}`);
        return info;
      }
      touchOwned(logFile);
      const settings = `-p ${opts.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dataDir}`;
      log(`starting PostgreSQL on 127.0.0.1:${opts.port} (data ${dataDir}, log ${logFile})`);
      await runChecked(
        ...asPostgres(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-l', logFile, '-o', settings, '-w', 'start']),
        {
          timeoutMs: 120_000,
        },
      );
      return info;
    },
    log,
  );
}

/** Stops the cluster on `port` if it runs (fast shutdown: connections are closed, data is kept). */
export async function stopPostgres(opts: { root: string; port: number; stateDir?: string; log?: Log }): Promise<void> {
  const bin = postgresBinDir();
  const dataDir = path.join(postgresDir(opts.root, opts.port, opts.stateDir), 'data');
  if (!bin || !fs.existsSync(path.join(dataDir, 'postmaster.pid'))) return;
  opts.log?.(`stopping PostgreSQL on port ${opts.port}`);
  await runChecked(...asPostgres(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'fast', '-w', 'stop']), {
    timeoutMs: 60_000,
  });
}

async function initCluster(bin: string, dir: string, dataDir: string, passwordFile: string, log: Log): Promise<void> {
  // Parents stay traversable (a recursive mkdir would give them the mode too); the server's own folder
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The server's own folder: postgres works in it; the password file in it stays ours (0600).
  chownToPostgres(dir);
  const password = randomBytes(24).toString('base64url');
  fs.writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  // initdb reads the superuser's password from a file the postgres user can read; it is removed right after.
  const pwfile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'assay-pg-')), 'pw');
  fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chownToPostgres(path.dirname(pwfile));
  chownToPostgres(pwfile);
  chownToPostgres(dataDir);
  log(`initializing a PostgreSQL cluster in ${dataDir}`);
  try {
    await runChecked(
      ...asPostgres(path.join(bin, 'initdb'), [
        '-D',
        dataDir,
        '--username=postgres',
        `--pwfile=${pwfile}`,
        '--auth-local=peer',
        '--auth-host=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C',
      ]),
      { timeoutMs: 120_000 },
    );
  } finally {
    fs.rmSync(path.dirname(pwfile), { recursive: true, force: true });
  }
}

function asPostgres(cmd: string, args: string[]): [string, string[]] {
  return isRoot() ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}

function postgresIds(): { uid: number; gid: number } | undefined {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  return uid && gid ? { uid: Number(uid), gid: Number(gid) } : undefined;
}

function chownToPostgres(p: string): void {
  if (!isRoot()) return;
  const ids = postgresIds();
  if (!ids) throw new Error('the `postgres` user is missing: reinstall Debian package postgresql');
  fs.chownSync(p, ids.uid, ids.gid);
}

/** pg_ctl runs as postgres and must be able to append to its log. */
function touchOwned(file: string): void {
  fs.closeSync(fs.openSync(file, 'a'));
  chownToPostgres(file);
}
