// temporal-read: the light path `assay status` reads a job's workflows through (connect-reading.ts,
// read-connection.ts, proto-subset.ts) instead of @temporalio/client, whose import builds the whole
// Temporal API. It is a subset cut from the Temporal SDK, not a client of its public API: the protobuf
// root is cut from @temporalio/proto's, and the channel is set up with the SDK's internal modules
// below, as the SDK's Connection sets it up. Nothing in the SDK's semver promises those stay put.
//
// Re-cut: when any version in TEMPORAL_READ_CUT_FOR changes (packages/cli/test/temporal-read-pin.test.ts
// fails until then), make the subset again against the new SDK, then record the new versions here:
//   1. each module of TEMPORAL_READ_SDK_MODULES still exists and exports what read-connection.ts and
//      proto-subset.ts take from it, with the same meaning (the pin test resolves the modules and the
//      names; what the functions do is read in the new SDK's source);
//   2. @temporalio/client/lib/connection.js still sets up its channel as createChannel() and rpcOf()
//      in read-connection.ts copy it: address normalization and default port, TLS and the server name
//      override, the channel arguments (keepalive, receive size), the retry interceptor, the API key as
//      `Authorization: Bearer`, the client-name / client-version and temporal-namespace headers;
//   3. the methods of READ_METHODS and the enums read-connection.ts reads keep their names and shapes
//      (proto-subset.test.ts and read-connection-tls.test.ts run them);
//   4. `assay status` against a running job reads as before.
// The protobuf subset cached under .assay/cache/ is keyed by the @temporalio/proto version, so it is
// cut again by itself at the first start after the upgrade.

/** The @temporalio/* versions the subset was last cut for (and checked against, as above). */
export const TEMPORAL_READ_CUT_FOR = {
  '@temporalio/client': '1.24.0',
  '@temporalio/common': '1.24.0',
  '@temporalio/proto': '1.24.0',
} as const;

/** The SDK's internal modules temporal-read imports, and the names it takes from each. */
export const TEMPORAL_READ_SDK_MODULES = {
  '@temporalio/client/lib/grpc-retry.js': ['defaultGrpcRetryOptions', 'makeGrpcRetryInterceptor'],
  '@temporalio/common/lib/converter/payload-converter.js': ['defaultPayloadConverter'],
  '@temporalio/common/lib/internal-non-workflow/parse-host-uri.js': ['normalizeGrpcEndpointAddress'],
  '@temporalio/common/lib/internal-non-workflow/tls-config.js': ['normalizeTlsConfig'],
  /** The full protobuf root the subset is cut from (a protobufjs Root, not named exports). */
  '@temporalio/proto/protos/json-module.js': [],
} as const satisfies Record<string, readonly string[]>;

export { connectReading, explainCallFailure, repairNamespace } from './connect-reading.js';
