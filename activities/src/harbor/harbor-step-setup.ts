// A step's steps/<name>/workdir/, as Harbor's MultiStepTrial._prepare_step does it (_upload_step_workdir,
// _run_step_setup): before the step's agent, in the state that agent would start from (the previous step's
// snapshot; the task's or CLI's image for step 1), the folder's contents go into the agent's working directory
// (Harbor: `pwd` as the agent's user, then `docker cp workdir/. main:<pwd>`, so root-owned files with their
// modes) and, when there is a workdir/setup.sh, `bash <pwd>/setup.sh` runs there as the step's agent user,
// with the task's environment and on the agent's network (a compose task's sidecars are up). That container
// is committed as the step's setup snapshot, which the step's agent container then starts from.
//
// A checkpoint of its own: setup-result.json beside the step's agent result, the snapshot taken before it.
// A worker killed during setup.sh re-attaches to its container (setup.sh never runs twice); once the result is
// written, a retry goes straight to the agent, and an agent container gone without a result starts again from
// the setup snapshot: the workdir is never uploaded over what the agent did, and setup.sh is not run again.
// A failed setup.sh (non-zero exit, or past limits.setupSeconds: Harbor has no limit) is the step's failure,
// as Harbor records it: `Step '<name>' setup.sh exited with code N: <its output's end>`.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type Docker from 'dockerode';
import type { HarborStepSetup } from '@assay/core';
import { SETUP_LOG_FILE, SETUP_RESULT_FILE, type ResultsStore } from '@assay/results';
import { FinishedElsewhere, containerNameFor, demuxDockerLog, removeContainer } from '../run-agent-container.js';
import { tarFolderContents } from './folder-tar.js';
import { runHarborContainer, withPhaseEnv, type HarborContainerSpec } from './harbor-container.js';
import { snapshotImageOf } from './run-harbor-agent.js';

/** The setup container's run id (and its snapshot's name): the step's, with `:setup`. */
export const setupRunIdOf = (stepRunId: string): string => `${stepRunId}:setup`;

/** setup-result.json: the setup as the step records it, and which attempt (after a move) wrote it. */
interface StoredSetup {
  setup: HarborStepSetup;
  startedAt: string;
  endedAt: string;
  containerKey?: string;
}

export interface StepSetupArgs {
  stepName: string;
  /** steps/<name>/workdir/ in the task folder. */
  workdirDir: string;
  /** The step's agent run id: the setup container and its snapshot are named after it. */
  runId: string;
  workflowId: string;
  containerKey?: string;
  store: ResultsStore;
  /** The step's key in the store (setup-result.json and setup.log go there). */
  resultKey: string;
  /** The image the step's agent would start from without a workdir. */
  image: string;
  /** The step's agent user and working directory as its agent container gets them (null: the image's). */
  user: string | null;
  workdir: string | null;
  env: Record<string, string>;
  /** The phase's own variables (an allowlist's proxy): the process's, not kept in the snapshot (withPhaseEnv). */
  phaseEnv?: Record<string, string>;
  labels: Record<string, string>;
  seconds: number;
  limits: Pick<HarborContainerSpec, 'cpus' | 'memoryGiB' | 'pids'>;
  network: Pick<HarborContainerSpec, 'network' | 'aliases'>;
}

/** What names a step's setup and finds its result. */
type SetupKey = Pick<StepSetupArgs, 'runId' | 'store' | 'resultKey' | 'containerKey'>;

export interface StepSetupOutcome extends StoredSetup {
  /** The setup snapshot the agent starts from; null when setup.sh failed (the agent does not run). */
  image: string | null;
}

const failed = (s: HarborStepSetup): boolean => s.timedOut || (s.exitCode !== null && s.exitCode !== 0);

/** This attempt's setup result, if it is still usable: a success needs its snapshot (the reaper may have removed it). */
async function recordedSetup(docker: Docker, a: SetupKey): Promise<StepSetupOutcome | null> {
  const stored = (await a.store.getJson(`${a.resultKey}/${SETUP_RESULT_FILE}`)) as StoredSetup | null;
  if (!stored || (stored.containerKey ?? null) !== (a.containerKey ?? null)) return null;
  if (failed(stored.setup)) return { ...stored, image: null };
  const image = snapshotImageOf(setupRunIdOf(a.runId));
  const present = await docker
    .getImage(image)
    .inspect()
    .then(() => true)
    .catch(() => false);
  return present ? { ...stored, image } : null;
}

/** Whether this step's setup has begun for this attempt (its container is up, or its result written). */
export async function setupBegun(docker: Docker, a: SetupKey): Promise<boolean> {
  const exists = await docker
    .getContainer(containerNameFor(setupRunIdOf(a.runId)))
    .inspect()
    .then(() => true)
    .catch(() => false);
  return exists || (await recordedSetup(docker, a)) !== null;
}

export async function runStepSetup(docker: Docker, a: StepSetupArgs): Promise<StepSetupOutcome> {
  const runId = setupRunIdOf(a.runId);
  const earlier = await recordedSetup(docker, a);
  if (earlier) {
    await removeContainer(docker, runId); // left behind when a worker died just after the result
    return earlier;
  }
  const workdir = a.workdir ?? ((await docker.getImage(a.image).inspect()).Config.WorkingDir || '/');
  const script = `${workdir.replace(/\/+$/, '')}/setup.sh`;
  const hasScript = existsSync(path.join(a.workdirDir, 'setup.sh'));
  const spec: HarborContainerSpec = {
    workflowId: a.workflowId,
    runId,
    image: a.image,
    // Harbor: `bash <pwd>/setup.sh` when workdir/setup.sh exists; the files alone otherwise.
    cmd: withPhaseEnv(hasScript ? ['bash', script] : ['true'], a.phaseEnv ?? {}),
    env: a.env,
    binds: [],
    labels: { ...a.labels, 'assay.role': 'step-setup' },
    user: a.user,
    workdir,
    seconds: a.seconds,
    ...a.limits,
    ...a.network,
  };
  let result;
  try {
    result = await runHarborContainer(docker, spec, {
      fresh: () => undefined,
      finished: async () => (await recordedSetup(docker, a)) !== null,
      beforeStart: async (container) => {
        await container.putArchive(tarFolderContents(a.workdirDir), { path: workdir });
      },
    });
  } catch (err) {
    const other = err instanceof FinishedElsewhere ? await recordedSetup(docker, a) : null;
    if (other) return other;
    throw err;
  }
  // Harbor's reason holds setup.sh's stderr (setup.log beside the step keeps both streams).
  const stderr = result.exitCode === 0 ? '' : await stderrOf(docker.getContainer(containerNameFor(runId)));
  const setup: HarborStepSetup = {
    exitCode: hasScript ? result.exitCode : null,
    timedOut: result.timedOut,
    durationSeconds: result.durationSeconds,
    reason: result.timedOut
      ? `Step '${a.stepName}' setup.sh exceeded its ${a.seconds} s limit (the job's limits.setupSeconds)`
      : result.exitCode === 0
        ? null
        : `Step '${a.stepName}' setup.sh exited with code ${result.exitCode}: ${tail(stderr)}`,
  };
  const image = failed(setup) ? null : snapshotImageOf(runId);
  // The snapshot first: once the result exists, nothing re-creates the container it was taken from.
  if (image) {
    const [repo, tag] = image.split(':') as [string, string];
    await docker.getContainer(containerNameFor(runId)).commit({ repo, tag });
  }
  const stored: StoredSetup = {
    setup,
    startedAt: result.startedAt,
    endedAt: result.endedAt,
    ...(a.containerKey ? { containerKey: a.containerKey } : {}),
  };
  await a.store.putText(`${a.resultKey}/${SETUP_LOG_FILE}`, result.logs);
  await a.store.putJson(`${a.resultKey}/${SETUP_RESULT_FILE}`, stored);
  await removeContainer(docker, runId);
  return { ...stored, image };
}

async function stderrOf(container: Docker.Container): Promise<string> {
  const buf = (await container.logs({ stdout: false, stderr: true, follow: false })) as unknown as Buffer;
  return demuxDockerLog(buf);
}

/** The end of setup.sh's stderr, as Harbor puts it in the step's exception. */
function tail(logs: string): string {
  const t = logs.trim();
  return t.length <= 2000 ? t : `…${t.slice(-2000)}`;
}
