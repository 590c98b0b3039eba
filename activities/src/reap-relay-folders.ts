// The proxy relay folders of model CLI runs (packages/harnesses/src/proxy-relay.ts) live in the worker's
// temporary folder, named by a hash of the run, and a run removes its own. A worker killed mid-run leaves
// its folder; a retry of the run reuses it, but a run that never comes back (finished elsewhere,
// cancelled) leaves it for good. On worker start, after the stray containers are gone, a folder no
// assay container binds and untouched for an hour goes too: the hour covers a run on another worker of
// this machine that made its folder and has not created its container yet (an image build in between).
import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type Docker from 'dockerode';
import { relayDirFor } from '@assay/harnesses';
import { LABEL_MANAGED } from './run-agent-container.js';

const RELAY_FOLDER_GRACE_MS = 60 * 60 * 1000;

export async function reapRelayFolders(
  docker: Docker,
  log: (line: string) => void = () => undefined,
  opts: { root?: string; graceMs?: number; now?: number } = {},
): Promise<string[]> {
  const root = opts.root ?? path.dirname(relayDirFor('x'));
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return []; // no relay was ever made here
  }
  // Every assay container's, whatever its server: a folder one of them binds is in use.
  const containers = await docker.listContainers({ all: true, filters: { label: [`${LABEL_MANAGED}=true`] } });
  const bound = new Set(containers.flatMap((c) => (c.Mounts ?? []).map((m) => path.resolve(m.Source))));
  const cutoff = (opts.now ?? Date.now()) - (opts.graceMs ?? RELAY_FOLDER_GRACE_MS);
  const removed: string[] = [];
  for (const name of names) {
    const dir = path.join(root, name);
    const stat = statSync(dir, { throwIfNoEntry: false });
    if (!stat?.isDirectory() || bound.has(path.resolve(dir)) || stat.mtimeMs > cutoff) continue;
    rmSync(dir, { recursive: true, force: true });
    removed.push(dir);
    log(`removed stray model proxy relay folder ${dir} (no container uses it)`);
  }
  return removed;
}
