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
