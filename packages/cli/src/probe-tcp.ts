// Whether anything accepts TCP connections at host:port. A refused port answers in a millisecond;
// the Temporal client would wait its whole connectTimeout, and importing it alone costs ~1 s of CPU.
import net from 'node:net';

/** Splits "host:port" ("[::1]:7233" too); null when it is not one. */
export function splitAddress(address: string): { host: string; port: number } | null {
  const m = /^\[?([^\]]*?)\]?:(\d+)$/.exec(address.trim());
  if (!m?.[1] || !m[2]) return null;
  return { host: m[1], port: Number(m[2]) };
}

export type Probe = 'open' | 'closed' | 'slow';

/**
 * 'closed' when the connection is refused or the host cannot be found; 'slow' when it neither opens
 * nor fails within `timeoutMs` (a far server: the real client, with its own timeout, decides).
 */
export function probeTcp(address: string, timeoutMs = 500): Promise<Probe> {
  const target = splitAddress(address);
  // Something only the real client understands: let it decide.
  if (!target) return Promise.resolve('slow');
  return new Promise((resolve) => {
    const socket = net.connect({ host: target.host, port: target.port });
    const done = (probe: Probe): void => {
      socket.destroy();
      resolve(probe);
    };
    socket.setTimeout(timeoutMs, () => done('slow'));
    socket.once('connect', () => done('open'));
    socket.once('error', () => done('closed'));
  });
}
