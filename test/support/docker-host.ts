// A second (third...) Docker engine on this machine, standing for another host in multi-host
// tests: its own dockerd with its own socket, data root, exec root and managed containerd, and
// its containers under their own cgroup parent, so "the host dies" can be done for real: every
// process of that engine (dockerd, containerd, shims, the containers' processes) killed -9.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, openSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import Docker from 'dockerode';

export interface DockerHost {
  name: string;
  /** For DOCKER_HOST. */
  url: string;
  docker: Docker;
  /** kill -9 everything this engine runs, as a machine that loses power. */
  kill: () => void;
  /** Stops what is left (after `kill` too) and removes its folders. */
  remove: () => Promise<void>;
}

const PIDS_CGROUP = '/sys/fs/cgroup/pids';

/** `dir` must be empty or absent; `images` are copied in from the default engine. */
export async function startDockerHost(name: string, dir: string, images: string[]): Promise<DockerHost> {
  mkdirSync(dir, { recursive: true });
  const socket = path.join(dir, 'docker.sock');
  const cgroup = `assay-test-${name}`;
  const args = [
    `--host=unix://${socket}`,
    `--data-root=${path.join(dir, 'data')}`,
    `--exec-root=${path.join(dir, 'exec')}`,
    `--pidfile=${path.join(dir, 'docker.pid')}`,
    `--cgroup-parent=/${cgroup}`,
    '--bridge=none',
    '--iptables=false',
    '--ip-masq=false',
  ];
  const log = openSync(path.join(dir, 'dockerd.log'), 'a');
  const dockerd = spawn('dockerd', args, { detached: true, stdio: ['ignore', log, log] });
  dockerd.unref();
  const docker = new Docker({ socketPath: socket });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (
      await docker.ping().then(
        () => true,
        () => false,
      )
    )
      break;
    if (dockerd.exitCode !== null || Date.now() > deadline)
      throw new Error(`dockerd for ${name} did not start: ${readFileSync(path.join(dir, 'dockerd.log'), 'utf8')}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  const url = `unix://${socket}`;
  // Nothing is pulled on these machines: the images come from the default engine.
  execFileSync('sh', ['-c', `docker save ${images.join(' ')} | DOCKER_HOST=${url} docker load -q`], {
    stdio: 'ignore',
  });

  /** Every process of this engine: dockerd, containerd and shims (named by its folder) and the containers'. */
  const pids = (): number[] => {
    const own = readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .filter((p) => {
        try {
          return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(dir);
        } catch {
          return false;
        }
      })
      .map(Number);
    return [...own, ...cgroupProcs(path.join(PIDS_CGROUP, cgroup))];
  };
  const kill = (): void => {
    for (const pid of pids())
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
  };
  const remove = async (): Promise<void> => {
    kill();
    await new Promise((r) => setTimeout(r, 500));
    // A killed containerd leaves its containers' root filesystems mounted.
    const mounts = readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .map((l) => l.split(' ')[1] ?? '')
      .filter((m) => m.startsWith(dir))
      .sort((a, b) => b.length - a.length);
    for (const m of mounts) execFileSync('umount', ['-l', m], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
    removeCgroups(cgroup);
  };
  return { name, url, docker, kill, remove };
}

function cgroupProcs(dir: string): number[] {
  let out: number[] = [];
  try {
    out = readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
    for (const e of readdirSync(dir, { withFileTypes: true }))
      if (e.isDirectory()) out.push(...cgroupProcs(path.join(dir, e.name)));
  } catch {
    // no such cgroup (yet)
  }
  return out;
}

/** The engine's cgroups in every controller, children first (rmdir: a cgroup holds only pseudo files). */
function removeCgroups(cgroup: string): void {
  for (const controller of readdirSync('/sys/fs/cgroup')) {
    const dirs: string[] = [];
    const walk = (d: string): void => {
      try {
        for (const e of readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) walk(path.join(d, e.name));
        dirs.push(d);
      } catch {
        // not in this controller
      }
    };
    walk(path.join('/sys/fs/cgroup', controller, cgroup));
    for (const d of dirs)
      try {
        execFileSync('rmdir', [d], { stdio: 'ignore' });
      } catch {
        // still busy: left for the machine
      }
  }
}
