// A model CLI's way to the worker's key-injecting proxy without the host's network. The proxy serves the
// run's route alone on a Unix socket in a folder of its own; that folder is bind-mounted read-only into the
// container, where relay/proxy-relay.mjs (on the image's node) listens on 127.0.0.1:RELAY_PORT and pipes to
// the socket, then runs the CLI. The CLI's base URL is a loopback URL as with the host's network, the
// container can sit on network `none` or a trial's bridge network, reaches no port of the worker, and the
// key stays in the worker (the socket carries the CLI's requests with the dummy key; the proxy adds it).
import { chmodSync, copyFileSync, mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { INSTALLS } from './installs.js';
import { messages } from './messages.js';
import { HarnessConfigError } from './harness-config-error.js';

/** The relay's port inside the container (its own loopback: it clashes with nothing of the worker's). */
export const RELAY_PORT = 47801;
/** Where the relay folder is mounted in the container. */
export const RELAY_MOUNT = '/assay-relay';
/** The node every npm CLI image has (the node22 runtime recipe installs it there). */
export const RELAY_NODE = '/usr/local/bin/node';
const RELAY_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'relay', 'proxy-relay.mjs');
/** A Unix socket's path has at most 107 bytes: the folder is under the worker's tmp, not its work folders. */
const MAX_SOCKET_PATH = 107;

export interface ProxyRelay {
  /** The socket the proxy must serve the route on (ModelProxy.serveRoute) before the container starts. */
  socket: string;
  /** The CLI's base URL inside the container. */
  baseUrl: string;
  /** The bind mount of the relay folder (read-only). */
  bind: string;
  /** The container's command: the relay, then the CLI's own command. */
  wrap: (cmd: string[]) => string[];
  /** Removes the folder (after the run: the proxy closes the socket itself). */
  remove: () => void;
}

/** The relay folder of one route (its id is a hash of the run's id, so a retried activity finds the same). */
export function relayDirFor(routeId: string): string {
  return path.join(process.env.ASSAY_RELAY_DIR ?? path.join(os.tmpdir(), 'assay-relay'), routeId);
}

/**
 * Images with node at RELAY_NODE: every npm CLI's, and a Python CLI's when it is built onto another image
 * (ensureHarnessImage with a baseImage: the bundle sits on the node22 runtime), which is where the relay is used.
 */
function canRelay(harness: string): boolean {
  return harness in INSTALLS;
}

/** The route's relay folder with the relay script in it, and what the container needs to use it. */
export function prepareProxyRelay(routeId: string, harness: string): ProxyRelay {
  if (!canRelay(harness)) throw new HarnessConfigError(messages.relayNeedsNode(harness));
  const dir = relayDirFor(routeId);
  const socket = path.join(dir, 'proxy.sock');
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH) throw new Error(messages.relayPathTooLong(socket));
  mkdirSync(dir, { recursive: true });
  // The agent's user may be anyone: it must read the script and reach the socket (which only this run mounts).
  chmodSync(dir, 0o755);
  copyFileSync(RELAY_SCRIPT, path.join(dir, 'proxy-relay.mjs'));
  chmodSync(path.join(dir, 'proxy-relay.mjs'), 0o644);
  return {
    socket,
    baseUrl: `http://127.0.0.1:${RELAY_PORT}/r/${routeId}`,
    bind: `${dir}:${RELAY_MOUNT}:ro`,
    wrap: (cmd) => [
      RELAY_NODE,
      `${RELAY_MOUNT}/proxy-relay.mjs`,
      String(RELAY_PORT),
      `${RELAY_MOUNT}/proxy.sock`,
      '--',
      ...cmd,
    ],
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
