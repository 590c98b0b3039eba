// Embedded defaults: a local Temporal dev server on SQLite and a local Docker engine, unless the
// user points us at theirs (TEMPORAL_ADDRESS or a Temporal config profile, DOCKER_HOST). An external
// server is not touched here: connectChecked's preflight checks and configures its namespace.
import { ensureDocker, ensureScriptedAgentImage, startTemporalServer } from '@assay/infra';
import type { TemporalTarget } from '@assay/infra/temporal-connection';
import { temporalTarget } from './temporal-target.js';

export interface TemporalRuntime {
  address: string;
  /** How to connect (address, namespace, TLS, API key): hand it to the client and the worker. */
  target: TemporalTarget;
  /** The Web UI of the dev server assay started, when it has one. */
  uiUrl?: string;
}

export interface Runtime extends TemporalRuntime {
  images: { scriptedAgent: string } | null;
}

export interface RuntimeOptions {
  root: string;
  log: (line: string) => void;
  /** Ends a timed phase (ASSAY_TIMINGS). */
  mark?: (phase: string) => void;
}

/** The Temporal server: the user's, else the dev server of this checkout (started when it is not running). */
export async function ensureTemporal(opts: RuntimeOptions): Promise<TemporalRuntime> {
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
  opts.mark?.('temporal-server');
  return { address: target.address, target, ...(uiUrl ? { uiUrl } : {}) };
}

/** The Docker engine and the scripted agent's image, which every worker needs. */
export async function ensureImages(opts: RuntimeOptions): Promise<{ scriptedAgent: string }> {
  await ensureDocker({ root: opts.root, log: opts.log });
  opts.mark?.('docker');
  const image = await ensureScriptedAgentImage({ root: opts.root, log: opts.log });
  opts.mark?.('agent-image');
  return { scriptedAgent: image.tag };
}

/**
 * Both at once: the server's start (or health check) and the engine's and image's checks are
 * mostly waits on other processes, so they overlap.
 */
export async function ensureRuntime(opts: RuntimeOptions & { needDocker: boolean }): Promise<Runtime> {
  const [temporal, images] = await Promise.all([
    ensureTemporal(opts),
    opts.needDocker ? ensureImages(opts) : Promise.resolve(null),
  ]);
  return { ...temporal, images };
}
