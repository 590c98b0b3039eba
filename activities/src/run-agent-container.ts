// Start (or re-attach to) the agent container of one trial and wait for it.
// The container's name is derived from the workflow id, so a retried activity
// finds the container its predecessor started instead of starting a second one;
// the time limit is measured from the container's own start time for the same reason.
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type Docker from 'dockerode';
import type { HarnessContainerSpec } from '@assay/harnesses';
import type { Provenance } from '@assay/core';
import {
  createContainerOnce,
  listEnv,
  toCreateOptions,
  type ContainerSpec,
  type CreateOptions,
} from './container-create-options.js';
import { markPhase } from './mark-phase.js';

export const LABEL_MANAGED = 'assay.managed';
export const LABEL_WORKFLOW = 'assay.workflow-id';
/** The Temporal server and namespace whose workflow the container belongs to: only its workers reap it. */
export const LABEL_TEMPORAL_ADDRESS = 'assay.temporal-address';
export const LABEL_TEMPORAL_NAMESPACE = 'assay.temporal-namespace';

/** A worker's Temporal server as its containers are labelled (the address exactly as configured). */
export interface TemporalServerRef {
  address: string;
  namespace: string;
}

export function serverLabels(server: TemporalServerRef): Record<string, string> {
  return { [LABEL_TEMPORAL_ADDRESS]: server.address, [LABEL_TEMPORAL_NAMESPACE]: server.namespace };
}

export interface AgentContainerRequest {
  workflowId: string;
  /** Names the container (default: the workflow id); a trial that moved host gets a fresh one. */
  containerKey?: string;
  labels: Record<string, string>;
  /** The worker's server; absent (tests without one): the container carries no server labels. */
  server?: TemporalServerRef;
  plan: HarnessContainerSpec;
  workspace: string;
  instructionDir: string;
  env: Record<string, string>;
  limits: { agentSeconds: number };
  resources: { cpus: number; memoryGiB: number; pids: number; network: 'none' | 'host' | 'bridge' };
  /**
   * Nobody else creates this container: create it before looking for it (one engine call fewer
   * for a fresh run, ~30 ms each under load); a name already taken re-attaches as usual.
   */
  createFirst?: boolean;
}

export interface AgentContainerResult {
  exitCode: number | null;
  timedOut: boolean;
  startedAt: string;
  endedAt: string;
  durationSeconds: number;
  /** True when this call found a container started by an earlier attempt. */
  reattached: boolean;
  logs: string;
  /** The image the container ran, as the engine reports it: its id (`sha256:…`) and the name it was created from. */
  image: { id: string; tag: string } | null;
  /** The limits the engine applied to it (its HostConfig); null where it reported none. */
  enforced: EnforcedResources | null;
}

export type EnforcedResources = NonNullable<Provenance['resources']>;

export interface WaitHooks {
  /**
   * True when another attempt of the same activity already finished this run. Checked after
   * the container is found missing and before creating one: the finishing attempt writes its
   * result before it removes the container, so this order never starts a second agent.
   */
  finishedElsewhere: () => boolean | Promise<boolean>;
  heartbeat: (details: unknown) => void;
  sleep: (ms: number) => Promise<void>;
  cancelled: () => boolean;
}

export function containerNameFor(workflowId: string): string {
  return `assay-${createHash('sha256').update(workflowId).digest('hex').slice(0, 24)}`;
}

export async function runAgentContainer(
  docker: Docker,
  req: AgentContainerRequest,
  hooks: WaitHooks,
): Promise<AgentContainerResult> {
  const name = containerNameFor(req.containerKey ?? req.workflowId);
  // Never re-attach to the finished container of an earlier run that is being removed.
  await removalSettled(name);
  const first = req.createFirst ? await createContainerOnce(docker, buildAgentCreateOptions(name, req)) : null;
  markPhase('agent: container create');
  let container: Docker.Container;
  let reattached = true;
  let startedNow = false;
  if (first?.created) {
    container = first.container;
    reattached = false;
    // Created now: an attempt that finished meanwhile wrote its result before it removed its container.
    if (await hooks.finishedElsewhere()) {
      await container.remove({ force: true }).catch(() => undefined);
      throw new FinishedElsewhere();
    }
    await container.start();
    markPhase('agent: container start');
    startedNow = true;
  } else {
    container = docker.getContainer(name);
    let info = await inspectOrNull(container);
    if (!info) {
      if (await hooks.finishedElsewhere()) throw new FinishedElsewhere();
      reattached = false;
      container = (await createContainerOnce(docker, buildAgentCreateOptions(name, req))).container;
      info = await container.inspect();
    }
    startedNow = await startIfNeverStarted(container, info);
  }
  return waitForContainer(container, { name, seconds: req.limits.agentSeconds, reattached, startedNow }, hooks);
}

/** A container being waited for: its name (in heartbeats), its time limit, and how this call came by it. */
export interface ContainerRun {
  name: string;
  seconds: number;
  /** Found, started by an earlier attempt (or left unstarted by one), rather than created by this call. */
  reattached: boolean;
  /** Started by this call: it is running, so the first look waits for its exit (or the first poll). */
  startedNow: boolean;
}

/**
 * Wait for a started container to end, heartbeating: past its time limit (from its own start, so a re-attached
 * one is held to it too) it is killed, and on cancellation it is killed and this throws. A container that goes
 * away meanwhile was removed by another attempt that finished the run (FinishedElsewhere).
 */
export async function waitForContainer(
  container: Docker.Container,
  run: ContainerRun,
  hooks: Omit<WaitHooks, 'finishedElsewhere'>,
): Promise<AgentContainerResult> {
  // Docker's wait answers the moment the container exits: a trivial agent is not held to the
  // next 1 s poll. The poll stays, for heartbeats and the time limit; a failed wait only polls.
  const exited = container.wait().then(
    () => undefined,
    () => new Promise<void>(() => undefined),
  );
  if (run.startedNow) await Promise.race([hooks.sleep(1000), exited]);
  markPhase('agent: run and exit');
  let info: Docker.ContainerInspectInfo;
  let killedForTime = false;
  for (;;) {
    const current = await inspectOrNull(container);
    if (!current) throw new FinishedElsewhere();
    info = current;
    if (!info.State.Running) break;
    const started = Date.parse(info.State.StartedAt);
    const elapsed = (Date.now() - started) / 1000;
    hooks.heartbeat({ container: run.name, elapsedSeconds: Math.round(elapsed) });
    if (hooks.cancelled()) {
      await container.kill().catch(() => undefined);
      throw new Error('agent activity cancelled');
    }
    if (elapsed > run.seconds) {
      killedForTime = true;
      await container.kill().catch(() => undefined);
      continue;
    }
    await Promise.race([hooks.sleep(1000), exited]);
  }

  const startedAt = info.State.StartedAt;
  const endedAt = info.State.FinishedAt;
  const durationSeconds = Math.max(0, (Date.parse(endedAt) - Date.parse(startedAt)) / 1000);
  const logs = await readLogs(container);
  markPhase('agent: inspect and logs');
  return {
    exitCode: typeof info.State.ExitCode === 'number' ? info.State.ExitCode : null,
    timedOut: killedForTime || durationSeconds >= run.seconds,
    startedAt,
    endedAt,
    durationSeconds,
    reattached: run.reattached,
    logs,
    image: imageOf(info),
    enforced: enforcedOf(info),
  };
}

/** Docker reports the zero time for a container that was created but never started. */
export function neverStarted(info: Docker.ContainerInspectInfo): boolean {
  return !info.State.Running && info.State.StartedAt.startsWith('0001');
}

/** Start it if it never was (a worker died between its create and start); true when started here. */
export async function startIfNeverStarted(
  container: Docker.Container,
  info: Docker.ContainerInspectInfo,
): Promise<boolean> {
  if (!neverStarted(info)) return false;
  await container.start();
  return true;
}

/** What the engine applied, read back: 0 or absent means no limit, which is recorded as null. */
function enforcedOf(info: Docker.ContainerInspectInfo): EnforcedResources | null {
  const h = info.HostConfig as Docker.HostConfig | undefined;
  if (!h) return null;
  const positive = (n: number | undefined | null) => (typeof n === 'number' && n > 0 ? n : null);
  const nano = positive(h.NanoCpus);
  const memory = positive(h.Memory);
  return {
    cpus: nano === null ? null : nano / 1e9,
    memoryGiB: memory === null ? null : memory / 1024 ** 3,
    pids: positive(h.PidsLimit),
    // No network is NetworkDisabled (the engine still reports mode "default" then: see networkConfig).
    network: (info.Config as { NetworkDisabled?: boolean } | undefined)?.NetworkDisabled
      ? 'none'
      : (h.NetworkMode ?? null),
  };
}

/** The image from the container's own inspect: a re-attached container's is what it was created from. */
function imageOf(info: Docker.ContainerInspectInfo): { id: string; tag: string } | null {
  const id = info.Image;
  return typeof id === 'string' && id.startsWith('sha256:') ? { id, tag: info.Config.Image } : null;
}

/** The container went away because a concurrent attempt finished the run; the caller reads its result. */
export class FinishedElsewhere extends Error {
  override name = 'FinishedElsewhere';
  constructor() {
    super('the agent run was finished by another attempt of this activity');
  }
}

export async function removeContainer(docker: Docker, workflowId: string): Promise<void> {
  const name = containerNameFor(workflowId);
  // One started in the background by this process: done when it is, tried again if it failed.
  if (await removalSettled(name)) return;
  await docker
    .getContainer(name)
    .remove({ force: true })
    .catch((err: { statusCode?: number }) => {
      if (err.statusCode !== 404) throw err;
    });
}

/** Removals of exited containers still under way in this process, by container name: true once removed. */
const removals = new Map<string, Promise<boolean>>();

/**
 * Remove an exited container without waiting for the engine (its exit and logs are in, nothing
 * reads it again): removal is off the agent activity's critical path. Whoever next needs the
 * name gone awaits it (removeContainer, runAgentContainer); a worker that dies first leaves the
 * labelled container to the reaper, and the trial's finish removes it again.
 */
export function removeContainerLater(docker: Docker, workflowId: string): void {
  const name = containerNameFor(workflowId);
  const removal = docker
    .getContainer(name)
    .remove({ force: true })
    .then(
      () => true,
      (err: { statusCode?: number }) => err.statusCode === 404,
    )
    .finally(() => {
      if (removals.get(name) === removal) removals.delete(name);
    });
  removals.set(name, removal);
}

/**
 * At a trial's end: the agent container goes, without the trial waiting for the engine. A removal
 * this process started after the agent is left to finish; otherwise (the agent ran on a worker that
 * died) one is started. A worker that dies before either is done leaves the container to the next
 * worker's reaper (its workflow has ended by then).
 */
export function removeContainerSoon(docker: Docker, workflowId: string): void {
  if (!removals.has(containerNameFor(workflowId))) removeContainerLater(docker, workflowId);
}

/** Background removals still under way, settled (a worker awaits them before it exits). */
export async function settleContainerRemovals(): Promise<void> {
  while (removals.size > 0) await Promise.allSettled([...removals.values()]);
}

/** Wait for a background removal of the container, if one is under way; true when it removed it. */
async function removalSettled(name: string): Promise<boolean> {
  const pending = removals.get(name);
  return pending ? await pending : false;
}

export async function inspectOrNull(container: Docker.Container): Promise<Docker.ContainerInspectInfo | null> {
  try {
    return await container.inspect();
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) return null;
    throw err;
  }
}

/** What Docker writes into /etc/hosts for a container on network `none`. */
const LOOPBACK_HOSTS = '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n';

/**
 * No network: the container gets its own network namespace with only loopback either way, but
 * NetworkMode none has the engine set up a network sandbox for it (about 0.4 s of start at
 * concurrency 4), which NetworkDisabled skips. Without a sandbox the engine writes no /etc/hosts,
 * so the usual loopback one is bound from beside the workspace (outside what the agent sees).
 */
function networkConfig(req: AgentContainerRequest): { network: ContainerSpec['network']; binds: string[] } {
  if (req.resources.network !== 'none') return { network: { mode: req.resources.network }, binds: [] };
  const hosts = path.join(path.dirname(req.workspace), '.hosts');
  if (!existsSync(hosts)) writeFileSync(hosts, LOOPBACK_HOSTS);
  return { network: 'disabled', binds: [`${hosts}:/etc/hosts:ro`] };
}

/** The agent's container: the harness's plan, the trial's workspace and instruction, the trial's limits. */
export function buildAgentCreateOptions(name: string, req: AgentContainerRequest): CreateOptions {
  const network = networkConfig(req);
  return toCreateOptions({
    name,
    image: req.plan.image,
    // A given command is the whole command line: an image's ENTRYPOINT would get it as arguments.
    ...(req.plan.cmd.length > 0 ? { cmd: req.plan.cmd, entrypoint: [] } : {}),
    env: listEnv(req.env, req.plan.env),
    labels: {
      ...req.labels,
      ...(req.server ? serverLabels(req.server) : {}),
      [LABEL_MANAGED]: 'true',
      [LABEL_WORKFLOW]: req.workflowId,
    },
    workingDir: '/workspace',
    binds: [`${req.workspace}:/workspace`, `${req.instructionDir}:/assay:ro`, ...network.binds, ...req.plan.binds],
    network: network.network,
    cpus: req.resources.cpus,
    memoryGiB: req.resources.memoryGiB,
    pids: req.resources.pids,
    init: true,
    readOnlyRoot: req.plan.readOnlyRoot,
  });
}

async function readLogs(container: Docker.Container): Promise<string> {
  const buf = (await container.logs({
    stdout: true,
    stderr: true,
    follow: false,
    timestamps: false,
  })) as unknown as Buffer;
  return demuxDockerLog(buf);
}

/** Docker multiplexes stdout/stderr frames (8-byte headers) when there is no TTY. */
export function demuxDockerLog(buf: Buffer): string {
  const parts: string[] = [];
  let offset = 0;
  while (offset + 8 <= buf.length) {
    const size = buf.readUInt32BE(offset + 4);
    parts.push(buf.subarray(offset + 8, offset + 8 + size).toString('utf8'));
    offset += 8 + size;
  }
  if (offset === 0 && buf.length > 0) return buf.toString('utf8');
  return parts.join('');
}
