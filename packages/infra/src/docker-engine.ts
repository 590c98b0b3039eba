// A Docker engine to talk to: DOCKER_HOST if set, else /var/run/docker.sock; when nothing
// answers and we are root, Debian's dockerd is installed and started without bridge
// networking or iptables (this machine has neither; containers use network none or host).
import fs from 'node:fs';
import Docker from 'dockerode';
import { aptInstall } from './apt.js';
import { withLock } from './lock.js';
import { messages } from './messages.js';
import { dockerdLogFile, dockerdPidFile } from './paths.js';
import {
  isRoot,
  processAlive,
  processCommandLine,
  readPidFile,
  sleep,
  spawnDetached,
  tailFile,
  which,
  type Log,
} from './run.js';

export const DEFAULT_DOCKER_SOCKET = '/var/run/docker.sock';
export const DOCKERD_ARGS = ['--bridge=none', '--iptables=false', '--ip-masq=false'] as const;

/** A dockerode client for DOCKER_HOST, or the default unix socket. */
export function dockerClient(): Docker {
  if (process.env.DOCKER_HOST) return new Docker();
  return new Docker({ socketPath: DEFAULT_DOCKER_SOCKET });
}

export function dockerHost(): string {
  return process.env.DOCKER_HOST ?? `unix://${DEFAULT_DOCKER_SOCKET}`;
}

/** Resolves with undefined when the engine answers a ping, else with the reason. */
export async function pingDocker(docker = dockerClient(), timeoutMs = 3000): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((r) => (timer = setTimeout(() => r(`no answer in ${timeoutMs} ms`), timeoutMs)));
  const ping = docker.ping().then(
    () => undefined,
    (err: Error) => err.message,
  );
  try {
    return await Promise.race([ping, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface EnsureDockerOptions {
  log?: Log;
  /** Project root: dockerd's log and pid go to <root>/.assay/. Defaults to the current directory. */
  root?: string;
  timeoutMs?: number;
}

export interface DockerEngine {
  host: string;
  /** True when this call started dockerd. */
  startedByUs: boolean;
  /** dockerd's pid when this checkout started it (now or earlier). */
  pid?: number;
  version?: string;
}

export async function ensureDocker(opts: EnsureDockerOptions = {}): Promise<DockerEngine> {
  const log = opts.log ?? (() => {});
  const root = opts.root ?? process.cwd();
  const host = dockerHost();
  const docker = dockerClient();
  const found = async (startedByUs: boolean): Promise<DockerEngine> => {
    const v = await docker.version();
    const pid = ourDockerd(root);
    log(`Docker engine ${v.Version} (API ${v.ApiVersion}) answers at ${host}`);
    return { host, startedByUs, version: v.Version, ...(pid ? { pid } : {}) };
  };
  const why = await pingDocker(docker);
  if (why === undefined) return found(false);
  if (process.env.DOCKER_HOST) throw new Error(messages.dockerHostUnreachable(host, why));
  if (!isRoot()) throw new Error(messages.dockerNeedsRoot());

  return withLock(
    root,
    'dockerd',
    async () => {
      if ((await pingDocker(docker)) === undefined) return found(false);
      if (!which('dockerd')) await aptInstall(['docker.io'], { log, root });
      removeStaleDockerPid();
      const logFile = dockerdLogFile(root);
      const dockerd = which('dockerd') ?? 'dockerd';
      log(`starting ${dockerd} ${DOCKERD_ARGS.join(' ')} (log: ${logFile})`);
      const pid = spawnDetached(dockerd, DOCKERD_ARGS, logFile);
      fs.writeFileSync(dockerdPidFile(root), `${pid}\n`);
      const timeoutMs = opts.timeoutMs ?? 60_000;
      const deadline = Date.now() + timeoutMs;
      while ((await pingDocker(docker, 1000)) !== undefined) {
        if (!processAlive(pid)) throw new Error(messages.dockerdStartFailed(logFile, tailFile(logFile, 15)));
        if (Date.now() > deadline) throw new Error(messages.dockerdNotAnswering(Math.round(timeoutMs / 1000), logFile));
        await sleep(300);
      }
      return found(true);
    },
    log,
  );
}

/** Stops the dockerd this checkout started (never one started by someone else). */
export async function stopDockerd(opts: { root?: string; log?: Log } = {}): Promise<boolean> {
  const root = opts.root ?? process.cwd();
  const pid = ourDockerd(root);
  if (!pid) return false;
  opts.log?.(`stopping dockerd pid ${pid}`);
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 150 && processAlive(pid); i++) await sleep(200);
  fs.rmSync(dockerdPidFile(root), { force: true });
  return true;
}

function ourDockerd(root: string): number | undefined {
  const pid = readPidFile(dockerdPidFile(root));
  return pid !== undefined && processAlive(pid) && processCommandLine(pid).includes('dockerd') ? pid : undefined;
}

/** dockerd refuses to start while /var/run/docker.pid names a live process, even an unrelated one. */
function removeStaleDockerPid(): void {
  const file = '/var/run/docker.pid';
  const pid = readPidFile(file);
  if (pid !== undefined && !(processAlive(pid) && processCommandLine(pid).includes('dockerd')))
    fs.rmSync(file, { force: true });
}
