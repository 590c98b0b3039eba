// Embedded defaults: a local Temporal dev server on SQLite and a local Docker engine, unless the
// user points us at theirs (TEMPORAL_ADDRESS or a Temporal config profile, DOCKER_HOST). An external
// server is not touched here: connectChecked's preflight checks and configures its namespace.
import { ensureDocker, ensureScriptedAgentImage, startTemporalServer } from '@assay/infra';
import type { TemporalTarget } from '@assay/infra/temporal-connection';
import { temporalTarget } from './temporal-target.js';

export interface Runtime {
  address: string;
  /** How to connect (address, namespace, TLS, API key): hand it to the client and the worker. */
  target: TemporalTarget;
  images: { scriptedAgent: string } | null;
  /** The Web UI of the dev server assay started, when it has one. */
  uiUrl?: string;
}

export async function ensureRuntime(opts: {
  root: string;
  log: (line: string) => void;
  needDocker: boolean;
  /** Ends a timed phase (ASSAY_TIMINGS). */
  mark?: (phase: string) => void;
}): Promise<Runtime> {
  const mark = opts.mark ?? (() => undefined);
  let target = await temporalTarget();
  let uiUrl: string | undefined;
  if (!target.external) {
    const server = await startTemporalServer({ root: opts.root, log: opts.log, namespace: target.namespace });
    target = {
      ...target,
      address: server.address,
      connectionOptions: { ...target.connectionOptions, address: server.address },
    };
    uiUrl = server.uiUrl;
  }
  mark('temporal-server');
  const base = { address: target.address, target, ...(uiUrl ? { uiUrl } : {}) };
  if (!opts.needDocker) return { ...base, images: null };
  await ensureDocker({ root: opts.root, log: opts.log });
  mark('docker');
  const image = await ensureScriptedAgentImage({ root: opts.root, log: opts.log });
  mark('agent-image');
  return { ...base, images: { scriptedAgent: image.tag } };
}
