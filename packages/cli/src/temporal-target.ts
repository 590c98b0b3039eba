// The Temporal server every command talks to, read once by @temporalio/envconfig's conventions
// (see packages/infra/src/temporal-connection.ts), and the checked connection to it: connect, then
// the namespace preflight, so nothing is submitted to a namespace a job cannot run in.
import { loadTemporalTarget, type TemporalTarget } from '@assay/infra/temporal-connection';
import type { Connection } from '@temporalio/client';
import { CliError } from './cli-error.js';
import { messages } from './messages.js';

/** The server could not be reached at all (as opposed to a namespace problem). */
export class TemporalUnreachableError extends CliError {
  override name = 'TemporalUnreachableError';
}

let cached: TemporalTarget | undefined;

/** The connection settings; a bad profile, config file or TLS file is one sentence naming it. */
export async function temporalTarget(): Promise<TemporalTarget> {
  if (cached) return cached;
  try {
    cached = await loadTemporalTarget(process.env);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  return cached;
}

export interface CheckedConnectOptions {
  /** Lines saying what the preflight created or raised. */
  log?: (line: string) => void;
  connectTimeoutMs?: number;
  /** Only `run` and `worker`, which are about to use it, create a missing namespace. */
  createNamespace?: boolean;
}

/**
 * A client connection whose namespace has passed the preflight (created or fixed where the server
 * allows it); every failure is a CliError with one sentence.
 */
export async function connectChecked(target: TemporalTarget, opts: CheckedConnectOptions = {}): Promise<Connection> {
  const connection = await connectUnchecked(target, opts.connectTimeoutMs);
  try {
    await preflightOrFail(connection, target, opts);
  } catch (err) {
    await connection.close().catch(() => undefined);
    throw err;
  }
  return connection;
}

/** Connected, without the namespace preflight (job control runs it only when a call fails). */
export async function connectUnchecked(target: TemporalTarget, connectTimeoutMs?: number): Promise<Connection> {
  const { TemporalPreflightError, connectTemporal } = await import('@assay/infra/temporal-preflight');
  return connectTemporal(target, connectTimeoutMs).catch((err: Error) => {
    if (err instanceof TemporalPreflightError && err.kind === 'unreachable')
      throw new TemporalUnreachableError(messages.temporalUnreachable(target.address, err.reason));
    throw new CliError(err.message);
  });
}

/** The namespace preflight on an open connection; its problem as a CliError with its sentence. */
export async function preflightOrFail(
  connection: Connection,
  target: TemporalTarget,
  opts: CheckedConnectOptions = {},
): Promise<void> {
  const { preflightNamespace } = await import('@assay/infra/temporal-preflight');
  try {
    await preflightNamespace(connection, target, { log: opts.log, createNamespace: opts.createNamespace ?? false });
  } catch (err) {
    throw new CliError((err as Error).message);
  }
}
