// A read connection with the CLI's sentences. Read-only commands skip the namespace preflight (two
// calls and the full Temporal client) when nothing went wrong; when a call fails, the preflight runs
// then, so a missing namespace or search attribute is still said as `run` says it.
import path from 'node:path';
import type { TemporalTarget } from '@assay/infra/temporal-connection';
import { CliError } from '../cli-error.js';
import { messages } from '../messages.js';
import { repoRoot } from '../repo-root.js';
import { TemporalUnreachableError, connectChecked } from '../temporal-target.js';
import { openReadConnection, type ReadConnection } from './read-connection.js';

/** Connected (or a TemporalUnreachableError naming the address) within `timeoutMs`. */
export async function connectReading(target: TemporalTarget, timeoutMs: number): Promise<ReadConnection> {
  const connection = openReadConnection(target, path.join(repoRoot(), '.assay', 'cache'));
  try {
    await connection.ready(timeoutMs);
  } catch (err) {
    connection.close();
    const { reasonOf } = await import('@assay/infra/temporal-preflight');
    throw new TemporalUnreachableError(messages.temporalUnreachable(target.address, reasonOf(err)));
  }
  return connection;
}

/**
 * What a failed call on the job's workflow means, as a CliError: refused credentials and an
 * unreachable server in one sentence each; a workflow not found after the preflight passed is
 * `notFound`; the preflight's own sentence when the namespace is what is wrong.
 */
export async function explainCallFailure(
  target: TemporalTarget,
  err: unknown,
  notFound: string,
  log: (line: string) => void,
): Promise<never> {
  const { GRPC, grpcCodeOf } = await import('@assay/infra/temporal-connection');
  const { connectError } = await import('@assay/infra/temporal-preflight');
  const code = grpcCodeOf(err);
  // Refused credentials, then UNAVAILABLE and DEADLINE_EXCEEDED (14, 4): what connecting would have said.
  if (code !== undefined && [GRPC.UNAUTHENTICATED, GRPC.PERMISSION_DENIED, 14, 4].includes(code))
    throw connectErrorOf(connectError(target.address, err));
  // The preflight says what is wrong with the namespace, or passes (closing its connection).
  await (await connectChecked(target, { connectTimeoutMs: 5000, log })).close();
  if (code === GRPC.NOT_FOUND) throw new CliError(notFound);
  throw err;
}

function connectErrorOf(err: Error & { kind?: string }): CliError {
  return err.kind === 'unreachable' ? new TemporalUnreachableError(err.message) : new CliError(err.message);
}

/**
 * The preflight after a scan found stuck workflow tasks: a namespace that lost one of assay's search
 * attributes gets it again (what such a task usually lacks), as status always did before it skipped
 * the preflight; a preflight that fails only adds its line.
 */
export async function repairNamespace(target: TemporalTarget, log: (line: string) => void): Promise<void> {
  try {
    await (await connectChecked(target, { connectTimeoutMs: 5000, log })).close();
  } catch (err) {
    log(`assay: ${(err as Error).message}`);
  }
}
