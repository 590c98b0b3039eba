import { isIPv4 } from 'node:net';
import { networkInterfaces } from 'node:os';
import {
  TEMPORAL_SERVER_VERSION,
  setupAll,
  startProductionTemporal,
  startTemporalServer,
  stopProductionTemporal,
  stopTemporalServer,
  temporalServerStatus,
} from '@assay/infra';
import { CliError } from '../cli-error.js';
import { repoRoot } from '../repo-root.js';

const log = (line: string): void => console.log(line);

/** `assay setup`: install and start what is missing, idempotently, saying what it does. */
export async function setupCommand(opts: {
  documentTools?: boolean;
  chromium?: boolean;
  s3Server?: boolean;
  temporalServer?: boolean;
}): Promise<void> {
  await setupAll({
    root: repoRoot(),
    log,
    withDocumentTools: opts.documentTools !== false,
    withChromium: Boolean(opts.chromium),
    withS3Server: Boolean(opts.s3Server),
    withTemporalServer: Boolean(opts.temporalServer),
  });
}

interface ServerOptions {
  postgres?: boolean;
  port?: string;
  listen?: string;
  postgresPort?: string;
}

/** `--listen`: an IPv4 address of this machine (the services announce it to each other, so not 0.0.0.0). */
function listenOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const own = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
  if (!isIPv4(value) || value === '0.0.0.0' || !own.includes(value))
    throw new CliError(
      `--listen ${value}: give an IPv4 address of this machine (${own.filter((a) => isIPv4(a)).join(', ')}); ` +
        'the services announce it to each other, so 0.0.0.0 will not do',
    );
  return value;
}

function portOption(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1024 || n > 65000) throw new CliError(`${flag} ${value}: give a port 1024–65000`);
  return n;
}

export async function serverStartCommand(opts: ServerOptions = {}): Promise<void> {
  if (!opts.postgres) {
    const s = await startTemporalServer({ root: repoRoot(), log });
    console.log(`Temporal server at ${s.address}`);
    return;
  }
  const s = await startProductionTemporal({
    root: repoRoot(),
    log,
    port: portOption(opts.port, '--port'),
    postgresPort: portOption(opts.postgresPort, '--postgres-port'),
    listen: listenOption(opts.listen),
  });
  console.log(`Temporal server ${TEMPORAL_SERVER_VERSION} on PostgreSQL ${s.postgres.port} at ${s.address}`);
  if (s.address.startsWith('127.0.0.1:'))
    console.log("It answers on this machine only; --listen <this machine's IP> lets workers on others reach it.");
  else console.log(`Workers and clients on other machines: TEMPORAL_ADDRESS=${s.address}`);
}

export async function serverStopCommand(opts: ServerOptions = {}): Promise<void> {
  if (!opts.postgres) {
    await stopTemporalServer({ root: repoRoot(), log });
    return;
  }
  await stopProductionTemporal({
    root: repoRoot(),
    log,
    port: portOption(opts.port, '--port'),
    postgresPort: portOption(opts.postgresPort, '--postgres-port'),
  });
}

export async function serverStatusCommand(opts: { json?: boolean }): Promise<void> {
  const status = await temporalServerStatus({ root: repoRoot() });
  if (opts.json) console.log(JSON.stringify(status, null, 2));
  else
    console.log(
      status.running ? `running at ${status.address} (db ${status.dbFile}, UI ${status.uiUrl})` : 'not running',
    );
  if (!status.running) process.exitCode = 1;
}
