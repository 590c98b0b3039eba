// Every container assay starts (its own agents, a Harbor trial's, a compose task's sidecars) is described by one
// spec and created through here, so the limits and the hardening every one of them gets are written once.
import type Docker from 'dockerode';

export interface ContainerSpec {
  /** Derived from the run it belongs to: a retried activity finds the container by it. */
  name: string;
  image: string;
  /** Absent: the image's own. */
  cmd?: string[];
  entrypoint?: string[];
  /** `NAME=value` in order, as the engine gets them (listEnv). */
  env: string[];
  labels: Record<string, string>;
  /** Absent: the image's. */
  user?: string;
  workingDir?: string;
  binds?: string[];
  mounts?: Docker.MountConfig;
  /**
   * A network by name, the container known on it by `aliases` too (a user-defined one only); or `disabled`:
   * no network namespace set up by the engine at all (see networkConfig in run-agent-container.ts).
   */
  network: { mode: string; aliases?: string[] } | 'disabled';
  cpus: number;
  memoryGiB: number;
  pids: number;
  /** tini as PID 1, so signals (a kill at the time limit) reach the process it runs. */
  init: boolean;
  /** Absent: the engine's default (writable); read-only gets a small writable /tmp. */
  readOnlyRoot?: boolean;
  healthcheck?: { test: string[]; intervalSec: number; timeoutSec: number; retries: number; startPeriodSec: number };
}

/** Named: createContainerOnce finds the container by its name when another attempt made it. */
export type CreateOptions = Docker.ContainerCreateOptions & { name: string };

/** The engine's create options for a spec: limits in its units, no privilege escalation, never auto-removed. */
export function toCreateOptions(spec: ContainerSpec): CreateOptions {
  const ns = (sec: number): number => Math.round(sec * 1e9);
  const { network, healthcheck: hc } = spec;
  return {
    name: spec.name,
    Image: spec.image,
    ...(spec.cmd ? { Cmd: spec.cmd } : {}),
    ...(spec.entrypoint ? { Entrypoint: spec.entrypoint } : {}),
    Env: spec.env,
    Labels: spec.labels,
    ...(spec.user === undefined ? {} : { User: spec.user }),
    ...(spec.workingDir === undefined ? {} : { WorkingDir: spec.workingDir }),
    ...(network === 'disabled' ? { NetworkDisabled: true } : {}),
    ...(hc
      ? {
          Healthcheck: {
            Test: hc.test,
            Interval: ns(hc.intervalSec),
            Timeout: ns(hc.timeoutSec),
            Retries: hc.retries,
            StartPeriod: ns(hc.startPeriodSec),
          },
        }
      : {}),
    HostConfig: {
      ...(spec.binds ? { Binds: spec.binds } : {}),
      ...(spec.mounts ? { Mounts: spec.mounts } : {}),
      ...(network === 'disabled' ? {} : { NetworkMode: network.mode }),
      NanoCpus: ns(spec.cpus),
      Memory: Math.round(spec.memoryGiB * 1024 ** 3),
      PidsLimit: spec.pids,
      SecurityOpt: ['no-new-privileges'],
      ...(spec.readOnlyRoot === undefined ? {} : { ReadonlyRootfs: spec.readOnlyRoot }),
      ...(spec.readOnlyRoot ? { Tmpfs: { '/tmp': 'rw,size=256m' } } : {}),
      // Its exit and logs are read after it ends; whoever is done with it removes it.
      AutoRemove: false,
      Init: spec.init,
    },
    ...(network !== 'disabled' && network.aliases
      ? { NetworkingConfig: { EndpointsConfig: { [network.mode]: { Aliases: network.aliases } } } }
      : {}),
  };
}

/** Environment records as the engine's `NAME=value` list, in order (a name in two is listed twice, as given). */
export function listEnv(...records: Record<string, string>[]): string[] {
  return records.flatMap((env) => Object.entries(env).map(([k, v]) => `${k}=${v}`));
}

/**
 * Create the container unless its name is taken (409): names derive from the run, so only another attempt of
 * the same run took it, and the container it made is this run's: that one is used. `created`: made by this call.
 */
export async function createContainerOnce(
  docker: Docker,
  options: CreateOptions,
): Promise<{ container: Docker.Container; created: boolean }> {
  try {
    return { container: await docker.createContainer(options), created: true };
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode !== 409) throw err;
    return { container: docker.getContainer(options.name), created: false };
  }
}
