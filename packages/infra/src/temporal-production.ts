// A production Temporal server — the multi-service `temporal-server` binary on PostgreSQL — for
// runs that last days or span machines, where the SQLite dev server is not what to stand on.
// The binaries are built from the Go module proxy once per version (cached under .assay/tools/),
// the schema is applied with temporal-sql-tool's embedded PostgreSQL schemas, and the config is
// rendered by us. Ports: frontend P, history P+1, matching P+2, worker P+6, HTTP P+10, membership
// M+n (see membershipBasePort).
import fs from 'node:fs';
import path from 'node:path';
import { withLock } from './lock.js';
import { messages } from './messages.js';
import { freePortBlock, tcpAnswers } from './net.js';
import { assayDir, logsDir } from './paths.js';
import { ensurePostgres, stopPostgres, type PostgresInfo } from './postgres.js';
import { processAlive, readPidFile, run, runLogged, sleep, spawnDetached, tailFile, which, type Log } from './run.js';
import { ensureTemporalCli } from './temporal-cli.js';
import { configureNamespace, MIN_RETENTION_HOURS, type NamespaceState } from './temporal-namespace.js';

export const TEMPORAL_SERVER_VERSION = 'v1.32.2';
/** The server's go.mod asks for a newer Go than the machine's; the go command fetches this one. */
export const TEMPORAL_GO_TOOLCHAIN = 'go1.27.3';
const MODULE = 'go.temporal.io/server';

export interface ProductionTemporalOptions {
  root: string;
  /** Frontend gRPC port (default 7233). */
  port?: number;
  /**
   * The IPv4 address of this machine the services listen on and announce to each other (default
   * 127.0.0.1: this machine only). Workers on other machines need one they can reach.
   */
  listen?: string;
  postgresPort?: number;
  namespace?: string;
  /** Where PostgreSQL's data and the server's config live (default <root>/.assay); tools stay under root. */
  stateDir?: string;
  log?: Log;
}

export interface ProductionTemporalInfo extends NamespaceState {
  address: string;
  namespace: string;
  pid: number;
  spawned: boolean;
  logFile: string;
  postgres: Omit<PostgresInfo, 'password'>;
}

export function temporalServerToolsDir(root: string, version = TEMPORAL_SERVER_VERSION): string {
  return path.join(assayDir(root), 'tools', `temporal-server-${version}`);
}

function serverDir(root: string, port: number, stateDir?: string): string {
  return path.join(stateDir ?? assayDir(root), 'temporal-production', String(port));
}

/** `server` and `sql` (temporal-sql-tool) built with `go install`, once per version. */
export async function ensureTemporalServerBinaries(opts: {
  root: string;
  log?: Log;
}): Promise<{ server: string; sqlTool: string }> {
  const log = opts.log ?? (() => {});
  const dir = temporalServerToolsDir(opts.root);
  const found = { server: path.join(dir, 'server'), sqlTool: path.join(dir, 'sql') };
  const built = (): boolean => fs.existsSync(found.server) && fs.existsSync(found.sqlTool);
  if (built()) return found;
  return withLock(opts.root, 'temporal-server-build', async () => {
    if (built()) return found;
    const go = which('go');
    if (!go) throw new Error(`the Temporal server is built from the Go module proxy, but \`go\` is not on PATH`);
    log(
      `building temporal-server ${TEMPORAL_SERVER_VERSION} and temporal-sql-tool (about 15 min on 2 cores the first time)`,
    );
    await runLogged(
      go,
      [
        'install',
        `${MODULE}/cmd/server@${TEMPORAL_SERVER_VERSION}`,
        `${MODULE}/cmd/tools/sql@${TEMPORAL_SERVER_VERSION}`,
      ],
      {
        log,
        logFile: path.join(logsDir(opts.root), 'temporal-server-build.log'),
        env: { ...process.env, GOBIN: dir, GOTOOLCHAIN: TEMPORAL_GO_TOOLCHAIN, CGO_ENABLED: '0', GOFLAGS: '-mod=mod' },
        heartbeatMs: 60_000,
      },
    );
    if (!built()) throw new Error(`go install did not produce ${found.server} and ${found.sqlTool}`);
    return found;
  });
}

/** Starts (or finds running) the server on PostgreSQL, with the namespace configured for assay. */
export async function startProductionTemporal(opts: ProductionTemporalOptions): Promise<ProductionTemporalInfo> {
  const log = opts.log ?? (() => {});
  const port = opts.port ?? 7233;
  const namespace = opts.namespace ?? 'default';
  const cli = await ensureTemporalCli({ root: opts.root, log });
  const { server, sqlTool } = await ensureTemporalServerBinaries({ root: opts.root, log });
  const pg = await ensurePostgres({ root: opts.root, port: opts.postgresPort ?? 5432, stateDir: opts.stateDir, log });
  return withLock(
    opts.root,
    `temporal-${port}`,
    async () => {
      const dir = serverDir(opts.root, port, opts.stateDir);
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const logFile = path.join(logsDir(opts.root), `temporal-production-${port}.log`);
      const listen = opts.listen ?? '127.0.0.1';
      const address = `${listen}:${port}`;
      let pid = readPidFile(path.join(dir, 'pid'));
      let spawned = false;
      if (pid === undefined || !processAlive(pid)) {
        if (await tcpAnswers(listen, port)) throw new Error(messages.temporalPortTaken(address));
        await setupSchemas(sqlTool, pg, log);
        const config = writeConfig(dir, port, pg, listen);
        log(
          `starting temporal-server ${TEMPORAL_SERVER_VERSION} on ${address} (PostgreSQL ${pg.port}, log ${logFile})`,
        );
        pid = spawnDetached(server, ['--config-file', config, '--allow-no-auth', 'start'], logFile);
        fs.writeFileSync(path.join(dir, 'pid'), `${pid}\n`);
        spawned = true;
      } else {
        log(`temporal-server already running (pid ${pid}) on ${address}`);
      }
      await waitServing(cli, address, pid, logFile);
      await createNamespace(cli, address, namespace, log);
      const ns = await configureNamespace({ binary: cli, address, namespace, log });
      const { password: _password, ...postgres } = pg;
      return { address, namespace, pid, spawned, logFile, postgres, ...ns };
    },
    log,
  );
}

export async function stopProductionTemporal(opts: {
  root: string;
  port?: number;
  postgresPort?: number;
  stateDir?: string;
  log?: Log;
}): Promise<{ stopped: boolean }> {
  const log = opts.log ?? (() => {});
  const port = opts.port ?? 7233;
  const pidFile = path.join(serverDir(opts.root, port, opts.stateDir), 'pid');
  const pid = readPidFile(pidFile);
  let stopped = false;
  if (pid !== undefined && processAlive(pid)) {
    log(`stopping temporal-server pid ${pid}`);
    process.kill(pid, 'SIGTERM');
    for (let i = 0; i < 150 && processAlive(pid); i++) await sleep(200);
    if (processAlive(pid)) process.kill(pid, 'SIGKILL');
    stopped = true;
  }
  fs.rmSync(pidFile, { force: true });
  await stopPostgres({ root: opts.root, port: opts.postgresPort ?? 5432, stateDir: opts.stateDir, log });
  return { stopped };
}

/** Databases, then schemas: `update-schema` brings an existing database to this version's schema. */
async function setupSchemas(sqlTool: string, pg: PostgresInfo, log: Log): Promise<void> {
  const env = { ...process.env, SQL_PASSWORD: pg.password };
  const base = ['--plugin', 'postgres12', '--ep', pg.host, '-p', String(pg.port), '-u', pg.user];
  for (const [db, schema] of [
    ['temporal', 'postgresql/v12/temporal'],
    ['temporal_visibility', 'postgresql/v12/visibility'],
  ] as const) {
    const sql = async (args: string[], tolerate?: RegExp): Promise<void> => {
      const r = await run(sqlTool, [...base, '--db', db, ...args], { env, timeoutMs: 300_000 });
      const out = r.stderr + r.stdout;
      if (r.code !== 0 && !(tolerate && tolerate.test(out)))
        throw new Error(messages.commandFailed(`temporal-sql-tool --db ${db} ${args.join(' ')}`, r.code, out.trim()));
    };
    await sql(['create-database'], /already exists/i);
    const state = await run(sqlTool, [...base, '--db', db, 'update-schema', '--schema-name', schema], {
      env,
      timeoutMs: 300_000,
    });
    // A new database has no version table yet: set up versioning at 0.0, then update to the latest.
    if (state.code !== 0) {
      log(`temporal-sql-tool: setting up ${db}`);
      await sql(['setup-schema', '-v', '0.0']);
      await sql(['update-schema', '--schema-name', schema]);
    }
  }
}

/**
 * Membership ports are stored as a PostgreSQL smallint (≤ 32767): P-300 for the usual ports, else a
 * block below 32768 chosen from P, so a server on an ephemeral port (tests) still has valid ones.
 */
function membershipBasePort(port: number): number {
  return port - 300 + 6 <= 32767 ? port - 300 : 20000 + (port % 12000);
}

/** Each service's gRPC and membership port offset from P and M, and the frontend's HTTP port's from P. */
const SERVICE_OFFSETS = { frontend: 0, history: 1, matching: 2, worker: 6 } as const;
const HTTP_OFFSET = 10;

/** Every port a server on `port` binds (gRPC, HTTP, membership). */
function boundPorts(port: number): number[] {
  const offsets = Object.values(SERVICE_OFFSETS);
  const membership = membershipBasePort(port);
  return [...offsets.map((o) => port + o), port + HTTP_OFFSET, ...offsets.map((o) => membership + o)];
}

/** A frontend port all of whose bound ports are free, below the ephemeral range: for tests and benches. */
export function freeProductionTemporalPort(): Promise<number> {
  // Membership is P-300 for every P of the range, so the block's shape does not depend on P.
  const base = 21000;
  return freePortBlock(
    boundPorts(base).map((p) => p - base),
    [base, 32000],
  );
}

function writeConfig(dir: string, port: number, pg: PostgresInfo, listen: string): string {
  const membership = membershipBasePort(port);
  const store = (databaseName: string, maxConns: number) => ({
    sql: {
      pluginName: 'postgres12',
      databaseName,
      connectAddr: `${pg.host}:${pg.port}`,
      connectProtocol: 'tcp',
      user: pg.user,
      password: pg.password,
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  });
  const service = (grpcPort: number, membershipPort: number, extra: Record<string, unknown> = {}) => ({
    // Another address than loopback: every service binds to it, so other machines reach the frontend.
    rpc: {
      grpcPort,
      membershipPort,
      ...(listen === '127.0.0.1' ? { bindOnLocalHost: true } : { bindOnIP: listen }),
      ...extra,
    },
  });
  const dynamicConfig = path.join(dir, 'dynamicconfig.yaml');
  // As the dev server sets them: search attributes usable at once, updates on, long retention allowed.
  fs.writeFileSync(
    dynamicConfig,
    [
      'system.forceSearchAttributesCacheRefreshOnRead:',
      '  - value: true',
      'frontend.enableUpdateWorkflowExecution:',
      '  - value: true',
      'frontend.enableUpdateWorkflowExecutionAsyncAccepted:',
      '  - value: true',
      '',
    ].join('\n'),
  );
  const config = {
    log: { stdout: true, level: 'warn' },
    persistence: {
      defaultStore: 'default',
      visibilityStore: 'visibility',
      numHistoryShards: 4,
      datastores: { default: store('temporal', 20), visibility: store('temporal_visibility', 4) },
    },
    global: { membership: { maxJoinDuration: '30s', broadcastAddress: listen } },
    services: Object.fromEntries(
      Object.entries(SERVICE_OFFSETS).map(([name, o]) => [
        name,
        service(port + o, membership + o, name === 'frontend' ? { httpPort: port + HTTP_OFFSET } : {}),
      ]),
    ),
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: {
        active: { enabled: true, initialFailoverVersion: 1, rpcName: 'frontend', rpcAddress: `${listen}:${port}` },
      },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    dynamicConfigClient: { filepath: dynamicConfig, pollInterval: '10s' },
  };
  // JSON is YAML; the file holds the database password, so only we may read it.
  const file = path.join(dir, 'config.yaml');
  fs.writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  return file;
}

async function waitServing(cli: string, address: string, pid: number, logFile: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const r = await run(cli, ['operator', 'cluster', 'health', '--address', address, '--color', 'never'], {
      timeoutMs: 10_000,
    }).catch(() => undefined);
    if (r?.code === 0 && r.stdout.includes('SERVING')) return;
    if (!processAlive(pid)) throw new Error(messages.temporalServerExited(logFile, tailFile(logFile, 20)));
    if (Date.now() > deadline) throw new Error(messages.temporalNotHealthy(address, 120, logFile));
    await sleep(500);
  }
}

/** A production server starts with no namespace (the dev server makes `default` itself). */
async function createNamespace(cli: string, address: string, namespace: string, log: Log): Promise<void> {
  const args = ['operator', 'namespace', 'create', '--address', address, '--namespace', namespace];
  const r = await run(cli, [...args, '--retention', `${MIN_RETENTION_HOURS}h`, '--color', 'never'], {
    timeoutMs: 30_000,
  });
  if (r.code === 0) log(`namespace ${namespace} created`);
  else if (!/already (exists|registered)/i.test(r.stderr + r.stdout))
    throw new Error(messages.commandFailed(`temporal ${args.join(' ')}`, r.code, (r.stderr + r.stdout).trim()));
  // A new namespace takes a moment to reach every service.
  for (let i = 0; i < 60; i++) {
    const d = await run(cli, ['operator', 'namespace', 'describe', '--address', address, '--namespace', namespace], {
      timeoutMs: 10_000,
    });
    if (d.code === 0) return;
    await sleep(500);
  }
}
