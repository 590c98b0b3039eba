// The Temporal dev server (`temporal server start-dev`), persisted to SQLite under .assay/,
// run detached so it outlives the CLI that started it. An external server (TEMPORAL_ADDRESS,
// or anything already answering on the port) is used as is, only configured.
import fs from 'node:fs';
import path from 'node:path';
import { withLock } from './lock.js';
import { messages } from './messages.js';
import { tcpAnswers } from './net.js';
import { defaultTemporalDbFile, temporalLogFile, temporalPidFile, temporalStateFile } from './paths.js';
import { processAlive, processCommandLine, readPidFile, run, sleep, spawnDetached, tailFile, type Log } from './run.js';
import { ensureTemporalCli, temporalCliPath } from './temporal-cli.js';
import { configureNamespace, type NamespaceState } from './temporal-namespace.js';

export interface StartTemporalOptions {
  root: string;
  port?: number;
  dbFile?: string;
  namespace?: string;
  log?: Log;
  /** Serve the Web UI on port+1000 (it is embedded in the binary and works offline). */
  ui?: boolean;
  healthTimeoutMs?: number;
}

export interface TemporalServerInfo {
  address: string;
  namespace: string;
  startedByUs: boolean;
  /** True when this call spawned the process (false when it was already running). */
  spawned: boolean;
  pid?: number;
  dbFile?: string;
  uiUrl?: string;
  logFile?: string;
  retentionHours: number;
  searchAttributes: Record<string, string>;
}

interface ServerState {
  pid: number;
  port: number;
  dbFile: string;
  uiUrl?: string;
  startedAt: string;
}

export async function startTemporalServer(opts: StartTemporalOptions): Promise<TemporalServerInfo> {
  const log = opts.log ?? (() => {});
  const namespace = opts.namespace ?? 'default';
  const binary = await ensureTemporalCli({ root: opts.root, log });
  const timeout = opts.healthTimeoutMs ?? 60_000;

  const external = process.env.TEMPORAL_ADDRESS;
  if (external) return useExternalServer(binary, external, namespace, timeout, log);

  const port = opts.port ?? 7233;
  const at: DevServerPlace = { root: opts.root, binary, port, address: `127.0.0.1:${port}`, timeout, log };
  return withLock(opts.root, `temporal-${port}`, () => startOrReuseDevServer(at, opts, namespace), log);
}

/** Where a dev server of ours runs and how a start reaches it: what each of its phases needs. */
interface DevServerPlace {
  root: string;
  binary: string;
  port: number;
  address: string;
  timeout: number;
  log: Log;
}

async function useExternalServer(
  binary: string,
  external: string,
  namespace: string,
  timeout: number,
  log: Log,
): Promise<TemporalServerInfo> {
  log(`TEMPORAL_ADDRESS=${external}: using that server, not starting one`);
  await waitHealthy(binary, external, timeout);
  const ns = await configureNamespace({ binary, address: external, namespace, log });
  return { address: external, namespace, startedByUs: false, spawned: false, ...ns };
}

/** Run under the port's lock: whatever answers on the port is used, else a server is spawned. */
async function startOrReuseDevServer(
  at: DevServerPlace,
  opts: StartTemporalOptions,
  namespace: string,
): Promise<TemporalServerInfo> {
  const { root, binary, port, address, log } = at;
  const ours = ourServer(root, port);
  const running = await tcpAnswers('127.0.0.1', port);
  if (running) await reuseRunningServer(at, ours, opts.dbFile);
  else await spawnDevServer(at, opts.dbFile, opts.ui ?? true);
  const ns = await configureNamespace({ binary, address, namespace, log });
  const s = ourServer(root, port);
  return {
    address,
    namespace,
    startedByUs: !!s,
    spawned: !running,
    ...serverDetails(root, port, s),
    ...ns,
  } satisfies TemporalServerInfo & NamespaceState;
}

async function reuseRunningServer(
  at: DevServerPlace,
  ours: ServerState | undefined,
  dbFile: string | undefined,
): Promise<void> {
  const { address, log } = at;
  log(
    ours
      ? `Temporal dev server already running (pid ${ours.pid}) at ${address}`
      : `something already answers on ${address}: using it`,
  );
  if (ours && dbFile && ours.dbFile && path.resolve(dbFile) !== ours.dbFile) {
    log(`note: the running server uses ${ours.dbFile}, not ${path.resolve(dbFile)}; stop it first to switch`);
  }
  await waitHealthy(at.binary, address, at.timeout);
}

async function spawnDevServer(at: DevServerPlace, givenDbFile: string | undefined, ui: boolean): Promise<void> {
  const { root, port, address, log } = at;
  const dbFile = path.resolve(givenDbFile ?? defaultTemporalDbFile(root));
  fs.mkdirSync(path.dirname(dbFile), { recursive: true });
  const logFile = temporalLogFile(root, port);
  const args = buildDevServerArgs(dbFile, port, ui);
  log(`starting Temporal dev server on ${address} with ${dbFile} (log: ${logFile})`);
  // The pid and state are recorded as soon as the process exists, so `server stop` can end
  // one that never becomes healthy.
  const pid = await spawnHealthy(at.binary, args, address, at.timeout, logFile, (pid) =>
    recordServer(root, {
      pid,
      port,
      dbFile,
      startedAt: new Date().toISOString(),
      ...(ui ? { uiUrl: `http://127.0.0.1:${port + 1000}` } : {}),
    }),
  );
  log(`Temporal dev server healthy (pid ${pid})${ui ? `, UI http://127.0.0.1:${port + 1000}` : ''}`);
}

function buildDevServerArgs(dbFile: string, port: number, ui: boolean): string[] {
  const args = [
    'server',
    'start-dev',
    '--db-filename',
    dbFile,
    '--port',
    String(port),
    '--ip',
    '127.0.0.1',
    '--color',
    'never',
  ];
  if (ui) args.push('--ui-port', String(port + 1000), '--ui-disable-news-fetch');
  else args.push('--headless');
  for (const pragma of sqlitePragmas()) args.push('--sqlite-pragma', pragma);
  return args;
}

function recordServer(root: string, state: ServerState): void {
  fs.writeFileSync(temporalPidFile(root, state.port), `${state.pid}\n`);
  fs.writeFileSync(temporalStateFile(root, state.port), JSON.stringify(state, null, 2) + '\n');
}

/**
 * SQLite pragmas for the dev server's database. Its default rollback journal with a full fsync on
 * every commit makes each history write wait for the disk; a write-ahead log synced at checkpoints
 * keeps committed data across a process crash (only a power loss can drop the last commits).
 * ASSAY_TEMPORAL_SQLITE_PRAGMAS overrides the list (comma-separated PRAGMA=VALUE; empty: none).
 */
const DEFAULT_SQLITE_PRAGMAS = ['journal_mode=wal', 'synchronous=normal'];

function sqlitePragmas(env: NodeJS.ProcessEnv = process.env): string[] {
  const given = env.ASSAY_TEMPORAL_SQLITE_PRAGMAS;
  if (given === undefined) return DEFAULT_SQLITE_PRAGMAS;
  return given
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

export interface StopTemporalOptions {
  root: string;
  port?: number;
  log?: Log;
}

/** Stops the dev server this checkout started on the port (never an external one). */
export async function stopTemporalServer(opts: StopTemporalOptions): Promise<{ stopped: boolean; pid?: number }> {
  const log = opts.log ?? (() => {});
  const port = opts.port ?? 7233;
  const s = ourServer(opts.root, port);
  if (!s) {
    log(`no Temporal dev server of ours on port ${port}`);
    fs.rmSync(temporalPidFile(opts.root, port), { force: true });
    return { stopped: false };
  }
  log(`stopping Temporal dev server pid ${s.pid}`);
  signalGroup(s.pid, 'SIGTERM');
  for (let i = 0; i < 100 && processAlive(s.pid); i++) await sleep(200);
  if (processAlive(s.pid)) {
    log(`pid ${s.pid} ignored SIGTERM for 20 s: SIGKILL`);
    signalGroup(s.pid, 'SIGKILL');
    for (let i = 0; i < 25 && processAlive(s.pid); i++) await sleep(200);
  }
  // The port may linger for a moment after exit.
  for (let i = 0; i < 25 && (await tcpAnswers('127.0.0.1', port, 300)); i++) await sleep(200);
  fs.rmSync(temporalPidFile(opts.root, port), { force: true });
  fs.rmSync(temporalStateFile(opts.root, port), { force: true });
  return { stopped: true, pid: s.pid };
}

export interface TemporalStatus {
  running: boolean;
  address: string;
  startedByUs: boolean;
  pid?: number;
  dbFile?: string;
  uiUrl?: string;
  logFile?: string;
}

export async function temporalServerStatus(opts: { root: string; port?: number }): Promise<TemporalStatus> {
  const port = opts.port ?? 7233;
  const external = process.env.TEMPORAL_ADDRESS;
  const address = external ?? `127.0.0.1:${port}`;
  const s = external ? undefined : ourServer(opts.root, port);
  const binary = temporalCliPath(opts.root);
  const running = fs.existsSync(binary) ? await healthy(binary, address) : await tcpAnswers('127.0.0.1', port);
  return {
    running,
    address,
    startedByUs: !!s,
    ...serverDetails(opts.root, port, s),
  };
}

/** The live dev server recorded in this checkout's pid/state files, if any. */
function ourServer(root: string, port: number): ServerState | undefined {
  const pid = readPidFile(temporalPidFile(root, port));
  if (pid === undefined || !processAlive(pid) || !processCommandLine(pid).includes('start-dev')) return undefined;
  try {
    const state = JSON.parse(fs.readFileSync(temporalStateFile(root, port), 'utf8')) as ServerState;
    return { ...state, pid };
  } catch {
    return { pid, port, dbFile: '', startedAt: '' };
  }
}

/** What start and status report about a dev server of ours: its pid, database, log and UI. */
function serverDetails(
  root: string,
  port: number,
  s: ServerState | undefined,
): Pick<TemporalStatus, 'pid' | 'dbFile' | 'logFile' | 'uiUrl'> {
  if (!s) return {};
  return { pid: s.pid, dbFile: s.dbFile, logFile: temporalLogFile(root, port), ...(s.uiUrl ? { uiUrl: s.uiUrl } : {}) };
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

async function healthy(binary: string, address: string): Promise<boolean> {
  const r = await run(binary, ['operator', 'cluster', 'health', '--address', address, '--color', 'never'], {
    timeoutMs: 10_000,
  }).catch(() => undefined);
  return !!r && r.code === 0 && r.stdout.includes('SERVING');
}

/**
 * start-dev probes for free HTTP, metrics and membership ports and then binds them, so a launch
 * racing another process for one of them can panic at once (temporalio/cli#667). Such a launch is
 * tried once more; a server that dies for any other reason fails at once with its log.
 */
async function spawnHealthy(
  binary: string,
  args: string[],
  address: string,
  timeoutMs: number,
  logFile: string,
  record: (pid: number) => void,
): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const logStart = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
    const pid = spawnDetached(binary, args, logFile);
    record(pid);
    try {
      await waitHealthy(binary, address, timeoutMs, pid, logFile);
      return pid;
    } catch (e) {
      const died = !processAlive(pid);
      const panicked = died && /panic:|address already in use/.test(readFrom(logFile, logStart));
      if (!panicked || attempt === 2) throw e;
    }
  }
}

function readFrom(file: string, offset: number): string {
  try {
    return fs.readFileSync(file).subarray(offset).toString('utf8');
  } catch {
    return '';
  }
}

async function waitHealthy(
  binary: string,
  address: string,
  timeoutMs: number,
  pid?: number,
  logFile?: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await healthy(binary, address)) return;
    if (pid !== undefined && !processAlive(pid))
      throw new Error(messages.temporalStartFailed(logFile ?? '', tailFile(logFile ?? '', 15)));
    if (Date.now() > deadline)
      throw new Error(messages.temporalNotHealthy(address, Math.round(timeoutMs / 1000), logFile));
    await sleep(300);
  }
}
