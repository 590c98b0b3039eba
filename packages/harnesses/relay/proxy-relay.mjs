// Runs inside a model CLI's container, on the CLI image's own node, as the container's command:
//   node proxy-relay.mjs PORT SOCKET -- CLI ARGS...
// It listens on 127.0.0.1:PORT in the container and pipes every connection, byte for byte, to SOCKET:
// the worker's model proxy serving this run's route alone, bind-mounted read-only. So the CLI's base URL
// stays a loopback URL while the container has no network to the host (none, or a trial's bridge network),
// and holds no key. Once listening it runs the CLI as its child, passes signals on and exits with its code.
// Plain JavaScript with no imports beyond Node's: it is copied into the container as it is.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { constants } from 'node:os';

const [port, socket, dashes, ...cmd] = process.argv.slice(2);
if (!port || !socket || dashes !== '--' || cmd.length === 0) {
  process.stderr.write('[assay relay] usage: node proxy-relay.mjs PORT SOCKET -- CLI ARGS...\n');
  process.exit(64);
}

const server = net.createServer((client) => {
  const upstream = net.connect(socket);
  const end = () => {
    client.destroy();
    upstream.destroy();
  };
  // A worker that died and is being replaced refuses for a moment: the CLI's own retry covers it.
  for (const s of [client, upstream]) s.on('error', end).on('close', end);
  client.pipe(upstream);
  upstream.pipe(client);
});

server.on('error', (err) => {
  process.stderr.write(`[assay relay] cannot listen on 127.0.0.1:${port}: ${err.message}\n`);
  process.exit(70);
});

server.listen(Number(port), '127.0.0.1', () => {
  const [bin, ...args] = cmd;
  const child = spawn(bin, args, { stdio: 'inherit' });
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, () => child.kill(sig));
  child.on('error', (err) => {
    process.stderr.write(`[assay relay] cannot run ${bin}: ${err.message}\n`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0)));
});
