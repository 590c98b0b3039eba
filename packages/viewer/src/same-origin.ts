// A basic CSRF guard for the viewer's writes: a request that changes something must come from the viewer's own
// page, i.e. name the viewer as its Host (no DNS rebinding) and as its Origin (no other site's form or script).
// On 127.0.0.1 (the default) that is 127.0.0.1 or `localhost`, the same place.
import os from 'node:os';
import { bareHost } from './require-token.js';

const hostPort = (host: string, port: number) => `${host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * The Host values that name this viewer, listening on `listenHost`:`port`. Loopback: that address or `localhost`.
 * Another address or name: that one only. A wildcard (0.0.0.0, ::): the names of this machine itself — loopback,
 * the addresses of its interfaces (read per request: they change), its hostname and the wildcard. DNS rebinding
 * makes the browser send the attacker's own name as Host, which is none of these; off loopback the token keeps
 * such a page out as well (the browser never sends the viewer's cookie to another name).
 */
export function ownHosts(listenHost: string, port: number): string[] {
  const host = bareHost(listenHost);
  const loopback = ['127.0.0.1', 'localhost', '::1'];
  let names: string[];
  if (host === '127.0.0.1' || host === '::1') names = [host, 'localhost'];
  else if (host === 'localhost') names = loopback;
  else if (host === '0.0.0.0' || host === '::') {
    const addresses = Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address));
    names = [...loopback, ...addresses, os.hostname().toLowerCase(), host];
  } else names = [host];
  return [...new Set(names)].map((h) => hostPort(h.toLowerCase(), port));
}

/** Why the request is refused, or null when it comes from the viewer's own page. */
export function sameOriginProblem(
  host: string | undefined,
  origin: string | undefined,
  port: number,
  listenHost = '127.0.0.1',
): string | null {
  const own = ownHosts(listenHost, port);
  if (!host || !own.includes(host.toLowerCase())) return `Host ${host ?? '(none)'} is not this viewer (${own[0]})`;
  if (!origin) return 'no Origin header: writes are accepted from the viewer page only';
  if (!own.some((h) => origin.toLowerCase() === `http://${h}`))
    return `Origin ${origin} is not this viewer (http://${own[0]})`;
  return null;
}
