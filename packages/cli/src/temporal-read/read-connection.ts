// A read-only connection to a job's workflows for `assay status`: the calls it makes (describe, the
// close event's result, a query, the reverse history the task-failure scanner reads) through
// grpc-js over the protobuf subset of proto-subset.ts, instead of @temporalio/client (whose import
// builds the whole Temporal API: ~0.6 s of CPU). The channel is set up as the SDK's Connection sets
// it up — the same address normalization, TLS config, API key (`Authorization: Bearer`), metadata,
// client name and version, `temporal-namespace` header and retry interceptor, taken from the SDK's
// own modules — so it reaches every server the rest of assay reaches.
import { createRequire } from 'node:module';
import * as grpc from '@grpc/grpc-js';
import { defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client/lib/grpc-retry.js';
import { defaultPayloadConverter } from '@temporalio/common/lib/converter/payload-converter.js';
import { normalizeGrpcEndpointAddress } from '@temporalio/common/lib/internal-non-workflow/parse-host-uri.js';
import { normalizeTlsConfig } from '@temporalio/common/lib/internal-non-workflow/tls-config.js';
import type { temporal } from '@temporalio/proto';
import type { TemporalTarget } from '@assay/infra/temporal-connection';
import { loadProtoSubset, type ServiceMethods } from './proto-subset.js';

type WorkflowService = temporal.api.workflowservice.v1.WorkflowService;
type Payload = temporal.api.common.v1.IPayload;
export type ReadService = Pick<
  WorkflowService,
  'describeWorkflowExecution' | 'getWorkflowExecutionHistory' | 'getWorkflowExecutionHistoryReverse' | 'queryWorkflow'
>;

const require = createRequire(import.meta.url);
const CLIENT_VERSION = (require('@temporalio/client/package.json') as { version: string }).version;
const SERVICE = 'temporal.api.workflowservice.v1.WorkflowService';
export const READ_METHODS: ServiceMethods[] = [
  {
    service: SERVICE,
    methods: [
      'DescribeWorkflowExecution',
      'GetWorkflowExecutionHistory',
      'GetWorkflowExecutionHistoryReverse',
      'QueryWorkflow',
    ],
  },
];
const ENUMS = {
  status: 'temporal.api.enums.v1.WorkflowExecutionStatus',
  cause: 'temporal.api.enums.v1.WorkflowTaskFailedCause',
  closeEvent: 'temporal.api.enums.v1.HistoryEventFilterType',
} as const;

export interface ReadConnection {
  service: ReadService;
  /** Enum value -> name (WORKFLOW_TASK_FAILED_CAUSE_BAD_SEARCH_ATTRIBUTES), as @temporalio/proto's enums read. */
  causeNames: Record<number, string>;
  /** RUNNING, COMPLETED, ...: as the SDK's describe().status.name. */
  statusName(code: number | null | undefined): string;
  /** Waits until the channel is connected; throws grpc-js's error (no code) when it is not by the deadline. */
  ready(timeoutMs: number): Promise<void>;
  /** The first value a workflow returned (following its later runs), as the SDK's handle.result(). */
  result(workflowId: string, opts?: { wait?: boolean }): Promise<unknown>;
  /** The first value a query answers, as the SDK's handle.query(); a rejected query throws. */
  query(workflowId: string, queryType: string): Promise<unknown>;
  close(): void;
}

export function openReadConnection(target: TemporalTarget, cacheDir: string): ReadConnection {
  const root = loadProtoSubset(READ_METHODS, cacheDir, Object.values(ENUMS));
  const names = (e: string) => root.lookupEnum(e).valuesById;
  const client = createChannel(target);
  const service = root.lookupService(SERVICE).create(rpcOf(client, target), false, false) as unknown as ReadService;
  const closeEvent = root.lookupEnum(ENUMS.closeEvent).values.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT;
  if (closeEvent === undefined) throw new Error(`${ENUMS.closeEvent} has no CLOSE_EVENT in @temporalio/proto`);
  const { namespace } = target;
  return {
    service,
    causeNames: names(ENUMS.cause),
    statusName: (code) => (names(ENUMS.status)[code ?? 0] ?? 'UNKNOWN').replace(/^WORKFLOW_EXECUTION_STATUS_/, ''),
    ready: (timeoutMs) =>
      new Promise((resolve, reject) =>
        client.waitForReady(Date.now() + timeoutMs, (err) => (err ? reject(err) : resolve())),
      ),
    result: (workflowId, opts = {}) => resultOf(service, namespace, workflowId, closeEvent, opts.wait ?? true),
    async query(workflowId, queryType) {
      const req = { namespace, execution: { workflowId }, query: { queryType, queryArgs: { payloads: [] } } };
      const res = await service.queryWorkflow(req);
      if (res.queryRejected)
        throw new Error(`query ${queryType} rejected (workflow status ${res.queryRejected.status})`);
      return firstValue(res.queryResult?.payloads);
    },
    close: () => client.close(),
  };
}

/** The SDK Connection's channel: address, credentials and channel arguments. */
function createChannel(target: TemporalTarget): grpc.Client {
  const o = target.connectionOptions;
  const address = normalizeGrpcEndpointAddress(o.address, 7233);
  const tls = normalizeTlsConfig(o.tls, o.apiKey);
  const args: grpc.ChannelOptions = {
    'grpc.keepalive_permit_without_calls': 1,
    'grpc.keepalive_time_ms': 30_000,
    'grpc.keepalive_timeout_ms': 15_000,
    'grpc.max_receive_message_length': 128 * 1024 * 1024,
  };
  if (!tls) return new grpc.Client(address, grpc.credentials.createInsecure(), args);
  const buf = (b: Uint8Array | undefined) => (b ? Buffer.from(b) : null);
  const credentials = grpc.credentials.createSsl(
    buf(tls.serverRootCACertificate),
    buf(tls.clientCertPair?.key),
    buf(tls.clientCertPair?.crt),
  );
  if (tls.serverNameOverride) {
    args['grpc.ssl_target_name_override'] = tls.serverNameOverride;
    args['grpc.default_authority'] = tls.serverNameOverride;
  }
  return new grpc.Client(address, credentials, args);
}

/** protobufjs's rpc implementation over the channel, with the SDK's headers and retries. */
function rpcOf(client: grpc.Client, target: TemporalTarget) {
  const o = target.connectionOptions;
  const interceptors = [makeGrpcRetryInterceptor(defaultGrpcRetryOptions())];
  const headers: Record<string, string> = {
    'client-name': 'temporal-typescript',
    'client-version': CLIENT_VERSION,
    ...o.metadata,
    'temporal-namespace': target.namespace,
  };
  return (
    method: { name: string },
    request: Uint8Array,
    callback: (err: Error | null, response?: Uint8Array) => void,
  ) => {
    const metadata = new grpc.Metadata();
    if (o.apiKey) metadata.set('Authorization', `Bearer ${o.apiKey}`);
    for (const [k, v] of Object.entries(headers)) metadata.set(k, v);
    const path = `/${SERVICE}/${method.name}`;
    const same = (x: Buffer) => x;
    client.makeUnaryRequest(path, same, same, Buffer.from(request), metadata, { interceptors }, (err, res) =>
      callback(err, res),
    );
  };
}

/** The close event's result, following continued or retried runs; a closed run that did not complete throws. */
async function resultOf(
  service: ReadService,
  namespace: string,
  workflowId: string,
  closeEvent: number,
  wait: boolean,
): Promise<unknown> {
  const execution: { workflowId: string; runId?: string } = { workflowId };
  let nextPageToken: Uint8Array | undefined;
  for (;;) {
    const res = await service.getWorkflowExecutionHistory({
      namespace,
      execution,
      skipArchival: true,
      waitNewEvent: wait,
      historyEventFilterType: closeEvent,
      ...(nextPageToken ? { nextPageToken } : {}),
    });
    const ev = res.history?.events?.[0];
    if (!ev) {
      if (!wait) throw new Error(`workflow ${workflowId} has not closed`);
      nextPageToken = res.nextPageToken ?? undefined;
      continue;
    }
    nextPageToken = undefined;
    const completed = ev.workflowExecutionCompletedEventAttributes;
    const next =
      completed?.newExecutionRunId ??
      ev.workflowExecutionFailedEventAttributes?.newExecutionRunId ??
      ev.workflowExecutionTimedOutEventAttributes?.newExecutionRunId ??
      ev.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
    if (next) {
      execution.runId = next;
      continue;
    }
    if (completed) return firstValue(completed.result?.payloads);
    throw new Error(`workflow ${workflowId} did not complete (${closeKind(ev)})`);
  }
}

function closeKind(ev: temporal.api.history.v1.IHistoryEvent): string {
  if (ev.workflowExecutionFailedEventAttributes) return 'failed';
  if (ev.workflowExecutionCanceledEventAttributes) return 'cancelled';
  if (ev.workflowExecutionTerminatedEventAttributes) return 'terminated';
  if (ev.workflowExecutionTimedOutEventAttributes) return 'timed out';
  return 'closed';
}

/** The first payload as the SDK's default payload converter reads it (undefined when there is none). */
function firstValue(payloads: Payload[] | null | undefined): unknown {
  const first = payloads?.[0];
  return first ? defaultPayloadConverter.fromPayload(first) : undefined;
}
