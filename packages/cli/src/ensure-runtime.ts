// Embedded defaults: a local Temporal dev server on SQLite and a local Docker
// engine, unless the user points us at theirs (TEMPORAL_ADDRESS, DOCKER_HOST).
import { ensureDocker, ensureScriptedAgentImage, startTemporalServer } from '@assay/infra';
import { temporalAddress } from './repo-root.js';

export interface Runtime {
  address: string;
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
  let address = temporalAddress();
  let uiUrl: string | undefined;
  if (!process.env.TEMPORAL_ADDRESS) {
    const server = await startTemporalServer({ root: opts.root, log: opts.log });
    address = server.address;
    uiUrl = server.uiUrl;
  }
  mark('temporal-server');
  const ui = uiUrl ? { uiUrl } : {};
  if (!opts.needDocker) return { address, images: null, ...ui };
  await ensureDocker({ root: opts.root, log: opts.log });
  mark('docker');
  const image = await ensureScriptedAgentImage({ root: opts.root, log: opts.log });
  mark('agent-image');
  return { address, images: { scriptedAgent: image.tag }, ...ui };
}
