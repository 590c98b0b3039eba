import { setupAll, startTemporalServer, stopTemporalServer, temporalServerStatus } from '@assay/infra';
import { repoRoot } from '../repo-root.js';

const log = (line: string): void => console.log(line);

/** `assay setup`: install and start what is missing, idempotently, saying what it does. */
export async function setupCommand(opts: {
  documentTools?: boolean;
  chromium?: boolean;
  s3Server?: boolean;
}): Promise<void> {
  await setupAll({
    root: repoRoot(),
    log,
    withDocumentTools: opts.documentTools !== false,
    withChromium: Boolean(opts.chromium),
    withS3Server: Boolean(opts.s3Server),
  });
}

export async function serverStartCommand(): Promise<void> {
  const s = await startTemporalServer({ root: repoRoot(), log });
  console.log(`Temporal server at ${s.address}`);
}

export async function serverStopCommand(): Promise<void> {
  await stopTemporalServer({ root: repoRoot(), log });
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
