// The sidecars of a Harbor task with environment/docker-compose.yaml, run over dockerode (this machine has no
// `docker compose`): per trial one user-defined bridge network (`internal` when the task has no network), each
// sidecar on it under its service name, started in depends_on order (service_healthy waits for its
// healthcheck, service_completed_successfully for its container to exit 0). The file's named volumes are made empty for the trial and shared by the sidecars that mount them;
// a bound folder of environment/ is a volume of the trial seeded with a copy of it, a bound file is copied into
// the sidecar's container before it starts (the task folder itself is never mounted).
// Everything is named by the trial's workflow id and labelled with it, so a retried activity (a killed worker)
// finds the network, volumes and sidecars instead of starting them twice, and the reaper removes orphans.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Docker from 'dockerode';
import type { HarborComposeDependency, HarborComposeMount, HarborComposeSidecar, HarborTask } from '@assay/benchmark';
import { ensureImage } from '@assay/infra';
import { requireLocalImage } from './harbor-image.js';
import { createContainerOnce, listEnv, toCreateOptions, type CreateOptions } from '../container-create-options.js';
import { LABEL_MANAGED, LABEL_WORKFLOW, containerNameFor, neverStarted } from '../run-agent-container.js';
import { tarFile, tarFolderContents } from './folder-tar.js';
import { harborEnvironmentFailure } from './harbor-environment-failure.js';
import { resolveEnv } from './harbor-settings.js';

const REPO_ROOT = process.env.ASSAY_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const LABEL_SERVICE = 'assay.compose-service';
const SIDECAR_ROLE = 'sidecar';
const SEED_ROLE = 'volume-seed';

/** The trial's network: named by its workflow id, as its containers are. */
/** A trial's second network: a separate verifier's own, for its allowlist (never joined by main or a sidecar). */
export type NetworkPurpose = 'verifier';

export const networkNameFor = (workflowId: string, purpose?: NetworkPurpose): string =>
  `assay-net-${createHash('sha256')
    .update(purpose ? `${workflowId}:${purpose}` : workflowId)
    .digest('hex')
    .slice(0, 24)}`;

export const sidecarRunId = (workflowId: string, service: string): string => `${workflowId}:sidecar:${service}`;

/** One of the trial's named volumes: by its workflow id, as its network. */
export const volumeNameFor = (workflowId: string, volume: string): string =>
  `assay-vol-${createHash('sha256').update(workflowId).digest('hex').slice(0, 24)}-${volume}`;

export interface SidecarArgs {
  task: { id: string; harbor: HarborTask };
  workflowId: string;
  /** The trial's labels (job, system, task, trial, server): the reaper keeps them while the trial runs. */
  labels: Record<string, string>;
  /** No network for the task: the trial's network is `internal` (the sidecars and main reach only each other). */
  internal: boolean;
  /** The trial's limits: a sidecar's own are capped by them. */
  limits: { cpus: number; memoryGiB: number; pids: number; buildSeconds: number };
  heartbeat: () => void;
}

/** Network and sidecars up (found, or made), main's depends_on met; the network's name. */
export async function ensureSidecars(docker: Docker, args: SidecarArgs): Promise<string> {
  const compose = args.task.harbor.compose;
  if (!compose) throw new Error('ensureSidecars: the task has no compose file');
  const network = await ensureNetwork(docker, args);
  for (const volume of compose.volumes) await ensureVolume(docker, args, volume);
  const byName = new Map(compose.sidecars.map((s) => [s.name, s]));
  // Only what this call started is waited for: a re-attaching attempt finds the trial as it is.
  const started = new Set<string>();
  for (const sidecar of compose.sidecars) {
    await waitForDependencies(docker, args, sidecar.dependsOn, byName, started);
    if (await ensureSidecar(docker, args, sidecar, network)) started.add(sidecar.name);
  }
  await waitForDependencies(docker, args, compose.main.dependsOn, byName, started);
  return network;
}

/** The trial's network (found, or made): its sidecars', and an `allowlist` phase's (then internal). */
export async function ensureNetwork(
  docker: Docker,
  args: Pick<SidecarArgs, 'workflowId' | 'labels' | 'internal'> & { purpose?: NetworkPurpose },
): Promise<string> {
  const name = networkNameFor(args.workflowId, args.purpose);
  const found = await docker
    .getNetwork(name)
    .inspect()
    .then(() => true)
    .catch((err: { statusCode?: number }) => (err.statusCode === 404 ? false : Promise.reject(err)));
  if (found) return name;
  await docker.createNetwork({
    Name: name,
    Driver: 'bridge',
    Internal: args.internal,
    CheckDuplicate: true,
    Labels: { ...args.labels, [LABEL_MANAGED]: 'true', [LABEL_WORKFLOW]: args.workflowId },
  });
  return name;
}

/**
 * A bound folder's volume, seeded with the folder's contents unless a sidecar already mounts it (a retried
 * activity must not overwrite what a started sidecar wrote there). Seeded through a container that is never
 * started, so a read-only mount of the sidecar's does not stand in the way.
 */
async function ensureBindVolume(docker: Docker, args: SidecarArgs, mount: HarborComposeMount, image: string) {
  await ensureVolume(docker, args, mount.volume);
  const name = volumeNameFor(args.workflowId, mount.volume);
  const seedName = containerNameFor(`${args.workflowId}:seed:${mount.volume}`);
  await docker
    .getContainer(seedName)
    .remove({ force: true })
    .catch((err: { statusCode?: number }) => {
      if (err.statusCode !== 404) throw err;
    });
  const users = await docker.listContainers({ all: true, filters: { volume: [name] } });
  if (users.length > 0) return;
  const seed = await docker.createContainer({
    name: seedName,
    Image: image,
    Entrypoint: ['true'],
    Labels: { ...args.labels, 'assay.role': SEED_ROLE, [LABEL_MANAGED]: 'true', [LABEL_WORKFLOW]: args.workflowId },
    HostConfig: { NetworkMode: 'none', Mounts: [{ Type: 'volume', Source: name, Target: '/assay-seed' }] },
  });
  try {
    await seed.putArchive(tarFolderContents(mount.source ?? ''), { path: '/assay-seed' });
  } finally {
    await seed.remove({ force: true });
  }
}

async function ensureVolume(docker: Docker, args: SidecarArgs, volume: string): Promise<void> {
  const name = volumeNameFor(args.workflowId, volume);
  const found = await docker
    .getVolume(name)
    .inspect()
    .then(() => true)
    .catch((err: { statusCode?: number }) => (err.statusCode === 404 ? false : Promise.reject(err)));
  if (found) return;
  await docker.createVolume({
    Name: name,
    Driver: 'local',
    Labels: { ...args.labels, [LABEL_MANAGED]: 'true', [LABEL_WORKFLOW]: args.workflowId },
  });
}

/** A `build:` context is built and tagged by its content hash; an `image:` must be on this engine already. */
async function sidecarImage(docker: Docker, args: SidecarArgs, s: HarborComposeSidecar): Promise<string> {
  const file = args.task.harbor.compose?.file ?? 'docker-compose.yaml';
  if (s.buildContext === null) return requireLocalImage(docker, s.image ?? '', `${file}:services.${s.name}.image`);
  const name = `harbor-${args.task.id}-${s.name}`.slice(0, 100);
  const built = ensureImage({ root: REPO_ROOT, name, dockerfileDir: s.buildContext });
  const seconds = args.limits.buildSeconds;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${file}:services.${s.name}.build: docker build took longer than ${seconds} s`)),
      seconds * 1000,
    );
  });
  try {
    return (await Promise.race([built, timeout])).tag;
  } finally {
    clearTimeout(timer);
  }
}

/** Find the sidecar's container, or build its image and create it; true when this call started it. */
async function ensureSidecar(
  docker: Docker,
  args: SidecarArgs,
  s: HarborComposeSidecar,
  network: string,
): Promise<boolean> {
  const name = containerNameFor(sidecarRunId(args.workflowId, s.name));
  const container = docker.getContainer(name);
  let info = await container.inspect().catch((err: { statusCode?: number }) => {
    if (err.statusCode === 404) return null;
    throw err;
  });
  if (!info) {
    const image = await sidecarImage(docker, args, s);
    for (const mount of s.mounts)
      if (mount.source !== null && !mount.file) await ensureBindVolume(docker, args, mount, image);
    await createContainerOnce(docker, buildSidecarCreateOptions(args, s, image, network, name));
    info = await container.inspect();
  }
  // Created but never started (a worker died in between): start it; a started one is never started again.
  if (!neverStarted(info)) return false;
  for (const mount of s.mounts.filter((m) => m.file && m.source !== null))
    await putBoundFile(container, mount, args.task.harbor.compose?.file ?? 'docker-compose.yaml', s.name);
  await container.start();
  return true;
}

/** The sidecar's container as Compose makes it, on the trial's network under its service name. */
export function buildSidecarCreateOptions(
  args: SidecarArgs,
  s: HarborComposeSidecar,
  image: string,
  network: string,
  name: string,
): CreateOptions {
  const file = args.task.harbor.compose?.file ?? 'docker-compose.yaml';
  // Compose interpolates from the host's environment (`$$` is a literal `$`), as resolveEnv does for task.toml.
  const env = Object.fromEntries(
    Object.entries(resolveEnv(s.environment, process.env, `${file}:services.${s.name}.environment`)).map(([k, v]) => [
      k,
      v.replace(/\$\$/g, '$'),
    ]),
  );
  return toCreateOptions({
    name,
    image,
    ...(s.command ? { cmd: s.command } : {}),
    ...(s.entrypoint ? { entrypoint: s.entrypoint } : {}),
    env: listEnv(env),
    // Compose leaves an empty working_dir or user to the image.
    ...(s.workingDir ? { workingDir: s.workingDir } : {}),
    ...(s.user ? { user: s.user } : {}),
    labels: {
      ...args.labels,
      'assay.role': SIDECAR_ROLE,
      [LABEL_SERVICE]: s.name,
      [LABEL_MANAGED]: 'true',
      [LABEL_WORKFLOW]: args.workflowId,
    },
    ...(s.healthcheck ? { healthcheck: s.healthcheck } : {}),
    mounts: s.mounts
      .filter((v) => !v.file)
      .map((v) => ({
        Type: 'volume' as const,
        Source: volumeNameFor(args.workflowId, v.volume),
        Target: v.target,
        ReadOnly: v.readOnly,
      })),
    network: { mode: network, aliases: [s.name] },
    // A sidecar's own limits are capped by the trial's.
    cpus: Math.min(s.cpus ?? args.limits.cpus, args.limits.cpus),
    memoryGiB: Math.min(s.memoryMb === null ? args.limits.memoryGiB : s.memoryMb / 1024, args.limits.memoryGiB),
    pids: args.limits.pids,
    init: s.init,
  });
}

/** A bound file, copied into the created container where its target says (a volume cannot be a file). */
async function putBoundFile(
  container: Docker.Container,
  mount: HarborComposeMount,
  file: string,
  service: string,
): Promise<void> {
  const dir = path.posix.dirname(mount.target);
  await container
    .putArchive(tarFile(mount.source ?? '', path.posix.basename(mount.target)), { path: dir })
    .catch((err: { statusCode?: number; message?: string }) => {
      if (err.statusCode === 404)
        throw new Error(
          `${file}:services.${service}.volumes: "${mount.target}": the folder ${dir} is not in the sidecar's image, so the file cannot be copied there`,
        );
      throw err;
    });
}

/**
 * depends_on: started (it is, once ensured), healthy (its healthcheck passed; one that failed is an error) or
 * completed successfully (its container exited 0, as Compose waits for a one-shot init job; non-zero ends the
 * trial). Completion is checked on a re-attaching attempt too: an exited container stays as it ended.
 */
async function waitForDependencies(
  docker: Docker,
  args: SidecarArgs,
  deps: HarborComposeDependency[],
  byName: Map<string, HarborComposeSidecar>,
  started: Set<string>,
): Promise<void> {
  for (const dep of deps) {
    if (dep.condition === 'service_completed_successfully') await waitForCompletion(docker, args, dep.service);
    const hc = byName.get(dep.service)?.healthcheck;
    if (dep.condition !== 'service_healthy' || !hc || !started.has(dep.service)) continue;
    const container = docker.getContainer(containerNameFor(sidecarRunId(args.workflowId, dep.service)));
    // Docker's own budget for it, plus one interval of slack.
    const deadline = Date.now() + (hc.startPeriodSec + (hc.retries + 1) * (hc.intervalSec + hc.timeoutSec)) * 1000;
    for (;;) {
      const state = (await container.inspect()).State;
      const health = state.Health?.Status;
      if (health === 'healthy') break;
      if (health === 'unhealthy' || !state.Running || Date.now() > deadline)
        throw new Error(
          `${args.task.harbor.compose?.file}:services.${dep.service}.healthcheck: the sidecar did not become healthy (${state.Running ? (health ?? 'no health status') : `exited with ${state.ExitCode}`})`,
        );
      args.heartbeat();
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** A service_completed_successfully dependency: exited 0, within the environment's start budget (buildSeconds). */
async function waitForCompletion(docker: Docker, args: SidecarArgs, service: string): Promise<void> {
  const container = docker.getContainer(containerNameFor(sidecarRunId(args.workflowId, service)));
  const where = `${args.task.harbor.compose?.file}:services.${service}`;
  const deadline = Date.now() + args.limits.buildSeconds * 1000;
  for (;;) {
    const state = (await container.inspect()).State;
    if (!state.Running && !state.Restarting && state.Status !== 'created') {
      if (state.ExitCode === 0) return;
      throw harborEnvironmentFailure(
        `${where}: service "${service}" did not complete successfully: it exited with code ${state.ExitCode} (depends_on condition service_completed_successfully)`,
      );
    }
    if (Date.now() > deadline)
      throw harborEnvironmentFailure(
        `${where}: service "${service}" was still running after ${args.limits.buildSeconds} s (depends_on condition service_completed_successfully; the environment's build_timeout_sec, capped by the job's limits.setupSeconds)`,
      );
    args.heartbeat();
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Each sidecar's image as the engine reports its container's (`sha256:…`), by compose service; one not found is left out. */
export async function sidecarImagesOf(
  docker: Docker,
  args: Pick<SidecarArgs, 'task' | 'workflowId'>,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const s of args.task.harbor.compose?.sidecars ?? []) {
    const info = await docker
      .getContainer(containerNameFor(sidecarRunId(args.workflowId, s.name)))
      .inspect()
      .catch((err: { statusCode?: number }) => (err.statusCode === 404 ? null : Promise.reject(err)));
    if (info?.Image) out[s.name] = info.Image;
  }
  return out;
}

/** Once the trial is recorded: its sidecars, network and volumes go (found by label, so nothing of another's). */
export async function removeSidecars(docker: Docker, workflowId: string): Promise<void> {
  const sidecars = await docker.listContainers({
    all: true,
    filters: { label: [`${LABEL_WORKFLOW}=${workflowId}`, `assay.role=${SIDECAR_ROLE}`] },
  });
  for (const c of sidecars)
    await docker
      .getContainer(c.Id)
      .remove({ force: true })
      .catch((err: { statusCode?: number }) => {
        if (err.statusCode !== 404) throw err;
      });
  for (const name of [networkNameFor(workflowId), networkNameFor(workflowId, 'verifier')])
    await docker
      .getNetwork(name)
      .remove()
      .catch((err: { statusCode?: number }) => {
        if (err.statusCode !== 404) throw err;
      });
  const { Volumes } = await docker.listVolumes({ filters: { label: [`${LABEL_WORKFLOW}=${workflowId}`] } });
  for (const v of Volumes ?? [])
    await docker
      .getVolume(v.Name)
      .remove()
      .catch((err: { statusCode?: number }) => {
        if (err.statusCode !== 404) throw err;
      });
}
