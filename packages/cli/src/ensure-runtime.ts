// Embedded defaults: a local Temporal dev server on SQLite and a local Docker
// engine, unless the user points us at theirs (TEMPORAL_ADDRESS, DOCKER_HOST).
import { ensureDocker, ensureScriptedAgentImage, startTemporalServer } from '@assay/infra';
import { temporalAddress } from './repo-root.js';

export interface Runtime {
  address: string;
  images: { scriptedAgent: string } | null;
}

export async function ensureRuntime(opts: {
  root: string;
  log: (line: string) => void;
  needDocker: boolean;
}): Promise<Runtime> {
  let address = temporalAddress();
  if (!process.env.TEMPORAL_ADDRESS) {
    const server = await startTemporalServer({ root: opts.root, log: opts.log });
    address = server.address;
  }
  if (!opts.needDocker) return { address, images: null };
  await ensureDocker({ root: opts.root, log: opts.log });
  const image = await ensureScriptedAgentImage({ root: opts.root, log: opts.log });
  return { address, images: { scriptedAgent: image.tag } };
}
