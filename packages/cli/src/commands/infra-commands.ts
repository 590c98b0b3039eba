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
  postgresPort?: string;
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
  });
  console.log(`Temporal server ${TEMPORAL_SERVER_VERSION} on PostgreSQL ${s.postgres.port} at ${s.address}`);
  console.log(`Workers and clients on other machines: TEMPORAL_ADDRESS=<this host>:${s.address.split(':')[1]}`);
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
