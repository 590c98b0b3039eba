// One container of a Harbor trial (the agent's on the task image, the verifier's on the agent's snapshot),
// created under the name derived from its run id and then waited for by runAgentContainer, which re-attaches
// to a container by that name: a retried activity (a killed worker) finds the container instead of starting
// a second one, exactly as for assay's own agents.
import { Context } from '@temporalio/activity';
import type Docker from 'dockerode';
import {
  FinishedElsewhere,
  LABEL_MANAGED,
  LABEL_WORKFLOW,
  containerNameFor,
  removeContainer,
  runAgentContainer,
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

async function createContainer(docker: Docker, spec: HarborContainerSpec): Promise<void> {
  try {
    await docker.createContainer({
      name: containerNameFor(spec.runId),
      Image: spec.image,
      // Harbor runs agent, oracle and tests by `exec`, past the image's ENTRYPOINT; so do we.
      Cmd: spec.cmd,
      Entrypoint: [],
      Env: Object.entries(spec.env).map(([k, v]) => `${k}=${v}`),
      Labels: { ...spec.labels, [LABEL_MANAGED]: 'true', [LABEL_WORKFLOW]: spec.workflowId },
      ...(spec.user === null ? {} : { User: spec.user }),
      ...(spec.workdir === null ? {} : { WorkingDir: spec.workdir }),
      HostConfig: {
        Binds: spec.binds,
        NetworkMode: spec.network,
        NanoCpus: Math.round(spec.cpus * 1e9),
        Memory: Math.round(spec.memoryGiB * 1024 ** 3),
        PidsLimit: spec.pids,
        SecurityOpt: ['no-new-privileges'],
        AutoRemove: false,
        Init: true,
      },
      ...(spec.aliases ? { NetworkingConfig: { EndpointsConfig: { [spec.network]: { Aliases: spec.aliases } } } } : {}),
    });
  } catch (err) {
    // Another attempt created it between our inspect and create: that one is used.
    if ((err as { statusCode?: number }).statusCode !== 409) throw err;
  }
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
  },
): Promise<AgentContainerResult> {
  const ctx = Context.current();
  await oneAtATime(spec.runId, async () => {
    if (!(await containerExists(docker, spec.runId))) {
      if (await hooks.finished()) throw new FinishedElsewhere();
      hooks.fresh();
      await createContainer(docker, spec);
    }
    if (!hooks.beforeStart) return;
    // A worker killed between create and start left it unstarted: what goes in before the start goes in again.
    const container = docker.getContainer(containerNameFor(spec.runId));
    const info = await container.inspect();
    if (!info.State.Running && info.State.StartedAt.startsWith('0001')) await hooks.beforeStart(container);
  });
  const plan = { image: spec.image, cmd: spec.cmd, env: {}, binds: spec.binds, readOnlyRoot: false };
  const cancelRequested = (): boolean =>
    ctx.cancellationSignal.aborted && ctx.cancellationDetails?.cancelRequested === true;
  try {
    return await runAgentContainer(
      docker,
      {
        workflowId: spec.runId,
        labels: spec.labels,
        plan,
        workspace: '/nonexistent',
        instructionDir: '/nonexistent',
        env: {},
        limits: { agentSeconds: spec.seconds },
        // The network only matters when runAgentContainer creates a container, which createContainer did above.
        resources: { cpus: spec.cpus, memoryGiB: spec.memoryGiB, pids: spec.pids, network: 'none' },
      },
      {
        // Created above: runAgentContainer re-attaches to it, and finds it gone only when another attempt finished.
        finishedElsewhere: hooks.finished,
        heartbeat: (d) => {
          ctx.heartbeat(d);
          hooks.heartbeat?.();
        },
        sleep: (ms) => ctx.sleep(ms),
        cancelled: cancelRequested,
      },
    );
  } catch (err) {
    // Cancelled (`assay cancel`, `pause --now`): the stopped container goes too, so the trial's next run starts
    // a fresh one instead of re-attaching to a killed one (and recording its exit as the agent's).
    if (cancelRequested()) {
      await removeContainer(docker, spec.runId);
      throw ctx.cancellationSignal.reason as Error;
    }
    throw err;
  }
}
