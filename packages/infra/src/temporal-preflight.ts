// Before anything is submitted to a Temporal server: connect (one sentence when it cannot), then
// check that the namespace exists, keeps histories long enough and has assay's search attributes
// as Keyword, through the client's workflow and operator services. What is missing is created when
// the server lets us; otherwise one sentence names it and the `temporal operator` command that
// creates it. Without the attributes every workflow task of a job fails in the background.
import type { Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import type { google } from '@temporalio/proto';
import { messages } from './messages.js';
import type { Log } from './run.js';
import { GRPC, grpcCodeOf, type TemporalTarget } from './temporal-connection.js';
import { ASSAY_SEARCH_ATTRIBUTES, MIN_RETENTION_HOURS } from './temporal-namespace.js';

const { temporal } = proto; // a CommonJS module: its namespaces are properties of the default export
const KEYWORD = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
const TYPE_NAMES = temporal.api.enums.v1.IndexedValueType;

/** A problem the user must fix on the server: the message is the sentence to print. */
export class TemporalPreflightError extends Error {
  override name = 'TemporalPreflightError';
  constructor(
    message: string,
    /** 'unreachable': nothing answered; `reason` is the transport's own words. */
    readonly kind: 'unreachable' | 'credentials' | 'namespace' = 'namespace',
    readonly reason = '',
  ) {
    super(message);
  }
}

export interface PreflightReport {
  retentionHours: number;
  /** What this call created or raised (empty when the namespace was already right). */
  changed: string[];
}

/** Connects to the target; unreachable or refused credentials become one sentence naming the address. */
export async function connectTemporal(target: TemporalTarget, connectTimeoutMs = 10_000): Promise<Connection> {
  const { Connection } = await import('@temporalio/client');
  try {
    return await Connection.connect({ ...target.connectionOptions, connectTimeout: connectTimeoutMs });
  } catch (err) {
    throw connectError(target.address, err);
  }
}

export function connectError(address: string, err: unknown): TemporalPreflightError {
  const code = grpcCodeOf(err);
  const reason = reasonOf(err);
  if (code === GRPC.UNAUTHENTICATED || code === GRPC.PERMISSION_DENIED)
    return new TemporalPreflightError(messages.temporalCredentialsRefused(address, reason), 'credentials', reason);
  return new TemporalPreflightError(messages.temporalUnreachable(address, reason), 'unreachable', reason);
}

/** The server's own words for a gRPC error (its `details`), else the error's message, on one line. */
export function reasonOf(err: unknown): string {
  const e = err as { details?: unknown; message?: unknown; cause?: unknown } | null;
  const text = typeof e?.details === 'string' && e.details ? e.details : String(e?.message ?? err);
  return text.replace(/\s+/g, ' ').trim().replace(/\.+$/, '');
}

export interface PreflightOptions {
  log?: Log;
  /** false for commands that only read or steer an existing job: a missing namespace is an error then. */
  createNamespace?: boolean;
}

export async function preflightNamespace(
  connection: Connection,
  target: Pick<TemporalTarget, 'address' | 'namespace'>,
  opts: PreflightOptions = {},
): Promise<PreflightReport> {
  const { namespace } = target;
  const log = opts.log ?? (() => undefined);
  const changed: string[] = [];
  let retentionHours = await namespaceRetention(connection, target, opts.createNamespace ?? true, changed);
  if (retentionHours < MIN_RETENTION_HOURS) {
    await connection.workflowService
      .updateNamespace({ namespace, config: { workflowExecutionRetentionTtl: durationOf(MIN_RETENTION_HOURS * 3600) } })
      .catch((err: unknown) => {
        throw new TemporalPreflightError(
          messages.temporalRetentionTooShort(namespace, retentionHours, reasonOf(err), command(target, 'retention')),
        );
      });
    changed.push(`retention ${retentionHours} h -> ${MIN_RETENTION_HOURS} h`);
    retentionHours = MIN_RETENTION_HOURS;
  }
  await ensureSearchAttributes(connection, target, changed);
  for (const line of changed) log(`namespace ${namespace} on ${target.address}: ${line}`);
  return { retentionHours, changed };
}

/** The namespace's retention in hours; registers the namespace when it does not exist. */
async function namespaceRetention(
  connection: Connection,
  target: Pick<TemporalTarget, 'address' | 'namespace'>,
  create: boolean,
  changed: string[],
): Promise<number> {
  const { namespace } = target;
  try {
    const d = await connection.workflowService.describeNamespace({ namespace });
    return hoursOf(d.config?.workflowExecutionRetentionTtl?.seconds);
  } catch (err) {
    if (grpcCodeOf(err) !== GRPC.NOT_FOUND) throw new TemporalPreflightError(reasonAt(target, err));
    if (!create)
      throw new TemporalPreflightError(
        messages.temporalNoNamespace(namespace, target.address, command(target, 'namespace')),
      );
  }
  await connection.workflowService
    .registerNamespace({ namespace, workflowExecutionRetentionPeriod: durationOf(MIN_RETENTION_HOURS * 3600) })
    .catch((err: unknown) => {
      if (grpcCodeOf(err) === GRPC.ALREADY_EXISTS) return;
      throw new TemporalPreflightError(
        messages.temporalNamespaceMissing(namespace, target.address, reasonOf(err), command(target, 'namespace')),
      );
    });
  changed.push(`created with ${MIN_RETENTION_HOURS} h retention`);
  // A new namespace takes a while (the services' namespace caches: ~10 s on the dev server) to be
  // known to every service: the operator service answers NotFound until then.
  for (let attempt = 0; ; attempt++) {
    try {
      await connection.operatorService.listSearchAttributes({ namespace });
      const d = await connection.workflowService.describeNamespace({ namespace });
      return hoursOf(d.config?.workflowExecutionRetentionTtl?.seconds);
    } catch (err) {
      if (attempt >= 120 || grpcCodeOf(err) !== GRPC.NOT_FOUND) throw new TemporalPreflightError(reasonAt(target, err));
      await sleep(250);
    }
  }
}

async function ensureSearchAttributes(
  connection: Connection,
  target: Pick<TemporalTarget, 'address' | 'namespace'>,
  changed: string[],
): Promise<void> {
  const { namespace } = target;
  const list = async () =>
    (
      await connection.operatorService.listSearchAttributes({ namespace }).catch((err: unknown) => {
        throw new TemporalPreflightError(reasonAt(target, err));
      })
    ).customAttributes ?? {};
  const present = await list();
  for (const name of ASSAY_SEARCH_ATTRIBUTES) {
    const type = present[name];
    if (type !== undefined && type !== null && type !== KEYWORD)
      throw new TemporalPreflightError(
        messages.temporalSearchAttributeWrongType(name, namespace, typeName(type), command(target, 'remove', [name])),
      );
  }
  const missing = ASSAY_SEARCH_ATTRIBUTES.filter((n) => present[n] === undefined);
  if (missing.length === 0) return;
  const searchAttributes = Object.fromEntries(missing.map((n) => [n, KEYWORD]));
  await connection.operatorService.addSearchAttributes({ namespace, searchAttributes }).catch((err: unknown) => {
    if (grpcCodeOf(err) === GRPC.ALREADY_EXISTS) return;
    throw new TemporalPreflightError(
      messages.temporalSearchAttributesMissing(
        missing,
        namespace,
        target.address,
        reasonOf(err),
        command(target, 'search-attributes', missing),
      ),
    );
  });
  // Registration can take a moment to become visible.
  for (let attempt = 0; ; attempt++) {
    const now = await list();
    const still = missing.filter((n) => now[n] === undefined);
    if (still.length === 0) break;
    if (attempt >= 40)
      throw new TemporalPreflightError(
        messages.temporalSearchAttributesMissing(
          still,
          namespace,
          target.address,
          'still not listed 10 s after the server accepted them',
          command(target, 'search-attributes', still),
        ),
      );
    await sleep(250);
  }
  changed.push(`search attributes ${missing.join(', ')} registered (Keyword)`);
}

/** The exact `temporal operator` command that fixes it, run with the same TEMPORAL_* environment. */
function command(
  target: Pick<TemporalTarget, 'address' | 'namespace'>,
  what: 'namespace' | 'retention' | 'search-attributes' | 'remove',
  names: readonly string[] = [],
): string {
  const at = `--address ${target.address} --namespace ${target.namespace}`;
  const retention = `--retention ${MIN_RETENTION_HOURS}h`;
  if (what === 'namespace') return `temporal operator namespace create ${at} ${retention}`;
  if (what === 'retention') return `temporal operator namespace update ${at} ${retention}`;
  // One name per call: temporal 1.x CLIs register only the first of several --name flags.
  const verb = what === 'remove' ? 'remove' : 'create';
  const type = what === 'remove' ? '' : ' --type Keyword';
  return names.map((n) => `temporal operator search-attribute ${verb} ${at} --name ${n}${type}`).join(' && ');
}

function reasonAt(target: Pick<TemporalTarget, 'address' | 'namespace'>, err: unknown): string {
  return messages.temporalPreflightFailed(target.namespace, target.address, reasonOf(err));
}

function hoursOf(seconds: unknown): number {
  const s = typeof seconds === 'number' ? seconds : Number(String(seconds ?? 0));
  return Math.round((s / 3600) * 100) / 100;
}

function typeName(type: number): string {
  const name = TYPE_NAMES[type] ?? String(type);
  return name.replace(/^INDEXED_VALUE_TYPE_/, '');
}

/** protobufjs encodes a plain number where its types say Long. */
function durationOf(seconds: number): google.protobuf.IDuration {
  return { seconds: seconds as unknown as NonNullable<google.protobuf.IDuration['seconds']> };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
