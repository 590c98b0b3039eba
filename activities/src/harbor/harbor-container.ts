// One container of a Harbor trial (the agent's on the task image, the verifier's on the agent's snapshot),
// created under the name derived from its run id, or found by it: a retried activity (a killed worker) finds
// the container instead of starting a second one, and waits for it as for assay's own agents.
import { Context } from '@temporalio/activity';
import type Docker from 'dockerode';
import { createContainerOnce, listEnv, toCreateOptions, type CreateOptions } from '../container-create-options.js';
import { cancelRequested } from '../heartbeat.js';
import { markPhase } from '../mark-phase.js';
import { imageEntrypointOf, launchPastEntrypoint } from './image-entrypoint.js';
import {
  FinishedElsewhere,
  LABEL_MANAGED,
  LABEL_WORKFLOW,
  containerNameFor,
  inspectOrNull,
  neverStarted,
  removeContainer,
  startIfNeverStarted,
  waitForContainer,
  type AgentContainerResult,
} from '../run-agent-container.js';

export interface HarborContainerSpec {
  /** Stable id of this run (the workflow id, `:verifier` for the verifier): names the container. */
  runId: string;
  /** The trial's workflow id, labelled so the worker's reaper keeps the container while the trial runs. */
  workflowId: string;
  image: string;
  cmd: string[];
  env: Record<string, string>;
  binds: string[];
  labels: Record<string, string>;
  user: string | null;
  workdir: string | null;
  seconds: number;
  cpus: number;
  memoryGiB: number;
  pids: number;
  /** assay's policy network, or a compose task's trial network (then `aliases` names the container on it). */
  network: string;
  aliases?: string[];
  /** The task image's ENTRYPOINT, run before the command as Harbor runs it (image-entrypoint.ts); none: []. */
  imageEntrypoint?: string[];
}

export async function containerExists(docker: Docker, runId: string): Promise<boolean> {
  return docker
    .getContainer(containerNameFor(runId))
    .inspect()
    .then(() => true)
    .catch((err: { statusCode?: number }) => {
      if (err.statusCode === 404) return false;
      throw err;
    });
}

/**
 * The run's container: its command (past the image's ENTRYPOINT, which runs first when there is one), on its
 * network, under the trial's limits.
 */
export function buildHarborCreateOptions(spec: HarborContainerSpec): CreateOptions {
  const launch = launchPastEntrypoint(spec.imageEntrypoint ?? [], spec.cmd);
  return toCreateOptions({
    name: containerNameFor(spec.runId),
    image: spec.image,
    cmd: launch.cmd,
    entrypoint: launch.entrypoint,
    env: listEnv(spec.env),
    labels: { ...spec.labels, ...launch.labels, [LABEL_MANAGED]: 'true', [LABEL_WORKFLOW]: spec.workflowId },
    ...(spec.user === null ? {} : { user: spec.user }),
    ...(spec.workdir === null ? {} : { workingDir: spec.workdir }),
    binds: spec.binds,
    network: { mode: spec.network, ...(spec.aliases ? { aliases: spec.aliases } : {}) },
    cpus: spec.cpus,
    memoryGiB: spec.memoryGiB,
    pids: spec.pids,
    init: true,
  });
}

/** Attempts of one run on this worker (a heartbeat timed out while one went on): one checks and creates at a time. */
const creating = new Map<string, Promise<void>>();

async function oneAtATime(runId: string, step: () => Promise<void>): Promise<void> {
  const before = creating.get(runId) ?? Promise.resolve();
  const mine = before.then(step, step);
  const settled = mine.catch(() => undefined);
  creating.set(runId, settled);
  try {
    await mine;
  } finally {
    if (creating.get(runId) === settled) creating.delete(runId);
  }
}

/**
 * Run the container to its end (or its time limit). `fresh` runs before a container is created, never on
 * re-attach: the place to reset what the new container will write into. `finished` says whether another
 * attempt already recorded this run (then FinishedElsewhere is thrown and the caller reads that result).
 */
export async function runHarborContainer(
  docker: Docker,
  spec: HarborContainerSpec,
  hooks: {
    fresh: () => void;
    finished: () => Promise<boolean>;
    heartbeat?: () => void;
    /** Runs on a container created but never started, a re-attached one too: files put into it (idempotent). */
    beforeStart?: (container: Docker.Container) => Promise<void>;
    /** Runs once the container is up, before it is waited for, a re-attached one too (the healthchecks' gate). */
    afterStart?: (container: Docker.Container, startedNow: boolean) => Promise<void>;
  },
): Promise<AgentContainerResult> {
  const ctx = Context.current();
  const name = containerNameFor(spec.runId);
  let created = false;
  await oneAtATime(spec.runId, async () => {
    if (!(await containerExists(docker, spec.runId))) {
      if (await hooks.finished()) throw new FinishedElsewhere();
      hooks.fresh();
      const imageEntrypoint = await imageEntrypointOf(docker, spec.image);
      created = (await createContainerOnce(docker, buildHarborCreateOptions({ ...spec, imageEntrypoint }))).created;
    }
    if (!hooks.beforeStart) return;
    // A worker killed between create and start left it unstarted: what goes in before the start goes in again.
    const container = docker.getContainer(name);
    if (neverStarted(await container.inspect())) await hooks.beforeStart(container);
  });
  markPhase('agent: container create');
  const container = docker.getContainer(name);
  try {
    // Gone since: another attempt finished the run and removed it.
    const info = await inspectOrNull(container);
    if (!info) throw new FinishedElsewhere();
    const startedNow = await startIfNeverStarted(container, info);
    await hooks.afterStart?.(container, startedNow);
    return await waitForContainer(
      container,
      { name, seconds: spec.seconds, reattached: !created, startedNow },
      {
        heartbeat: (d) => {
          ctx.heartbeat(d);
          hooks.heartbeat?.();
        },
        sleep: (ms) => ctx.sleep(ms),
        cancelled: () => cancelRequested(ctx),
      },
    );
  } catch (err) {
    // Cancelled (`assay cancel`, `pause --now`): the stopped container goes too, so the trial's next run starts
    // a fresh one instead of re-attaching to a killed one (and recording its exit as the agent's).
    if (cancelRequested(ctx)) {
      await removeContainer(docker, spec.runId);
      throw ctx.cancellationSignal.reason as Error;
    }
    throw err;
  }
}

/**
 * `cmd` run with the phase's own variables (an allowlist's proxy, the oracle's [solution.env]) set for the
 * process, not on the container: a snapshot of the container keeps its Env, and the verifier and later steps
 * that start from it must not inherit the agent phase's (Docker can blank a variable, never drop it).
 */
export function withPhaseEnv(cmd: string[], env: Record<string, string>): string[] {
  const pairs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  return pairs.length === 0 ? cmd : ['env', ...pairs, ...cmd];
}
