// Harbor 0.25's separate verifier (verifier_mode.py `resolve_verifier_environment_definition`, trial.py
// `_run_separate_verifier`): not the agent's snapshot but a container of its own, on (a step's
// [steps.verifier.environment] and steps/<name>/tests/ first, then the task's)
//   1. [verifier.environment].docker_image (on this engine; nothing is pulled), else
//   2. tests/Dockerfile built with tests/ as its context (tagged by content hash like the task's image), and in
//      both the image owns /tests (Harbor uploads no tests then), else
//   3. a fresh copy of the task's environment (its image, not the snapshot), with tests/ at /tests as usual.
// Its settings are the verifier environment's ([verifier.environment], else the task's [environment]) within the
// job's; it is on its own network (never the trial's: Harbor starts it as its own environment), and it gets only
// the collected artifacts, put at their source paths before it starts.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type Docker from 'dockerode';
import type { HarborNetworkMode, HarborTask } from '@assay/benchmark';
import type { TrialInput } from '@assay/core';
import type { HarborContainerSpec } from './harbor-container.js';
import { buildHarborFolder, ensureHarborImage, requireLocalImage } from './harbor-image.js';
import { resolveEnv } from './harbor-settings.js';

/** A verifier environment, the folder its Dockerfile may be in, the field naming it, the image's name. */
type Candidate = [HarborTask['config']['verifier']['environment'], string, string, string];

export interface SeparateVerifierImage {
  image: string;
  /** The image holds /tests itself (Harbor's `bundled_tests`): tests/ is not put in. */
  bundled: boolean;
}

export async function separateVerifierImage(
  docker: Docker,
  task: { id: string; harbor: HarborTask },
  buildSeconds: number,
  stepName?: string,
): Promise<SeparateVerifierImage> {
  const { harbor } = task;
  // Harbor's candidates in order: the step's environment and steps/<name>/tests/, then the task's and tests/.
  const candidates: Candidate[] = [
    [harbor.config.verifier.environment, harbor.testsDir, 'verifier.environment', `harbor-${task.id}-tests`],
  ];
  if (stepName !== undefined)
    candidates.unshift([
      stepEnvironmentOf(harbor, stepName),
      path.join(harbor.dir, 'steps', stepName, 'tests'),
      `steps[${harbor.steps?.findIndex((s) => s.name === stepName) ?? -1}].verifier.environment`,
      `harbor-${task.id}-step-${stepName.toLowerCase()}-tests`,
    ]);
  for (const [env, dir, field, name] of candidates) {
    if (env?.dockerImage)
      return {
        image: await requireLocalImage(docker, env.dockerImage, `${harbor.configFile}:${field}.docker_image`),
        bundled: true,
      };
    if (existsSync(path.join(dir, 'Dockerfile')))
      return { image: await buildHarborFolder(name, dir, buildSeconds), bundled: true };
  }
  return { image: await ensureHarborImage(docker, task, buildSeconds), bundled: false };
}

/** A step's own [steps.verifier.environment], or null. */
function stepEnvironmentOf(harbor: HarborTask, stepName: string): HarborTask['config']['verifier']['environment'] {
  return harbor.steps?.find((s) => s.name === stepName)?.verifier.environment ?? null;
}

/** The container's settings past its image: the verifier environment's limits, network, workdir and env. */
export function separateVerifierSettings(
  harbor: HarborTask,
  trial: Pick<TrialInput, 'limits' | 'resources'>,
  stepName?: string,
): Pick<HarborContainerSpec, 'cpus' | 'memoryGiB' | 'pids' | 'network' | 'workdir' | 'env'> {
  // Harbor's resolve_effective_verifier_env_config: the step's, else the task's verifier environment, else [environment].
  const own = stepName === undefined ? null : stepEnvironmentOf(harbor, stepName);
  const env = own ?? harbor.config.verifier.environment ?? harbor.config.environment;
  const { resources } = trial;
  const { networkMode: mode } = separateVerifierPolicy(harbor, stepName);
  const atMost = (task: number | null, job: number): number => (task === null ? job : Math.min(task, job));
  const where = own || harbor.config.verifier.environment ? 'verifier.environment.env' : 'environment.env';
  return {
    cpus: atMost(env.cpus, resources.cpus),
    memoryGiB: atMost(env.memoryMb === null ? null : env.memoryMb / 1024, resources.memoryGiB),
    pids: resources.pids,
    // Its own environment: a compose task's verifier is not on the trial's network. An allowlist one's internal
    // network is made when it runs (run-harbor-verifier.ts).
    network: mode === 'no-network' ? 'none' : resources.network,
    workdir: env.workdir,
    env: {
      ...resolveEnv(env.env, process.env, `${harbor.configFile}:${where}`),
      ...resolveEnv(harbor.config.verifier.env, process.env, `${harbor.configFile}:verifier.env`),
    },
  };
}

/**
 * Harbor's verifier phase policy for a separate verifier (network_policy.py): the verifier's own network_mode
 * (the step's, else the task's [verifier]), else its environment's baseline (the step's or the task's
 * [verifier.environment], else [environment]), each with its own allowed_hosts.
 */
export function separateVerifierPolicy(
  harbor: HarborTask,
  stepName?: string,
): { networkMode: HarborNetworkMode; allowedHosts: string[] } {
  const { verifier } = harbor.config;
  if (verifier.networkMode !== null) return { networkMode: verifier.networkMode, allowedHosts: verifier.allowedHosts };
  const own = stepName === undefined ? null : stepEnvironmentOf(harbor, stepName);
  const env = own ?? verifier.environment ?? harbor.config.environment;
  return { networkMode: env.networkMode, allowedHosts: env.allowedHosts };
}
