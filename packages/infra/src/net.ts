import net from 'node:net';

/** True when something accepts a TCP connection on host:port within timeoutMs. */
export function tcpAnswers(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Splits "host:port" (port defaulting to 7233). */
export function splitAddress(address: string, defaultPort = 7233): { host: string; port: number } {
  const m = /^(.*):(\d+)$/.exec(address);
  if (!m) return { host: address, port: defaultPort };
  return { host: (m[1] ?? '').replace(/^\[|\]$/g, ''), port: Number(m[2]) };
}

/** A free TCP port on 127.0.0.1 (for tests and throwaway servers). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A base port P with P+offset free for every offset, chosen below Linux's ephemeral range
 * (32768+): a server that binds several ports from one base (temporal-server binds P..P+10 and a
 * membership block) would otherwise race outgoing connections taking those ports.
 */
export async function freePortBlock(
  offsets: readonly number[],
  range: [number, number] = [21000, 32000],
): Promise<number> {
  const [lo, hi] = range;
  for (let attempt = 0; attempt < 200; attempt++) {
    const base = lo + Math.floor(Math.random() * (hi - lo));
    const checks = await Promise.all(offsets.map((o) => portFree(base + o)));
    if (checks.every(Boolean)) return base;
  }
  throw new Error(`no block of free ports with offsets ${offsets.join(',')} in ${lo}-${hi}`);
}
