// The verifier phase of a Harbor trial: a fresh container on the agent's snapshot image, with a copy of tests/
// at /tests (only now: the agent never saw it) and /logs/verifier bound to the trial's results folder, runs
// tests/test.sh as Harbor does; the rewards are read from reward.json (preferred, as Harbor does) or reward.txt.
// Before it, the task's artifacts and collect hooks are taken (collect-evidence.ts); a separate verifier
// (separate-verifier-spec.ts) runs on its own image instead of the snapshot, with those artifacts only.
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { Context } from '@temporalio/activity';
import type Docker from 'dockerode';
import type { HarborTask } from '@assay/benchmark';
import { scoredRewardOf, type HarborVerifierRun, type Provenance, type TrialInput } from '@assay/core';
import { FinishedElsewhere, removeContainer, type AgentContainerResult } from '../run-agent-container.js';
import {
  VERIFIER_DIR,
  VERIFIER_RESULT_FILE,
  isRemoteLocation,
  listRegularFiles,
  verifierFileKey,
  verifierResultKey,
  type ResultsStore,
} from '@assay/results';
import { collectEvidence } from './collect-evidence.js';
import { putArtifacts } from './harbor-collect.js';
import { runHarborContainer, type HarborContainerSpec } from './harbor-container.js';
import { harborSettings, resolveEnv, type HarborSettings } from './harbor-settings.js';
import { ensureNetwork, sidecarImagesOf } from './harbor-sidecars.js';
import { withAllowlistEgress } from './allowlist-egress.js';
import { harborRunKey, snapshotImageOf } from './run-harbor-agent.js';
import { ensureTrialSidecars, localNames, trialNetworkArgs } from './harbor-trial-network.js';
import { separateVerifierImage, separateVerifierPolicy, separateVerifierSettings } from './separate-verifier-spec.js';

export interface HarborVerifierArgs {
  trial: TrialInput;
  task: { id: string; harbor: HarborTask };
  workflowId: string;
  /** The job's results store and the trial's key in it: verifier/ (reward files, test output, result.json). */
  store: ResultsStore;
  resultKey: string;
  /** The trial's local results scratch (its folder in a folder store): the verifier writes /logs/verifier there. */
  scratchDir: string;
  workDir: string;
  labels: Record<string, string>;
  /** A step of a multi-step task: the verifier runs on that step's snapshot with the step's tests. */
  step?: { runId: string; testsDirs: string[]; name?: string };
  /** The agent run's key after a move (see HarborAgentArgs): its snapshot, and a result of this attempt only. */
  containerKey?: string;
}

/**
 * The images the verifier ran with, by engine id (`sha256:…`): its container's (the agent's snapshot) and, on a
 * compose task, each sidecar's by service. Absent in results stored before them.
 */
export type HarborVerifierImages = Pick<Provenance, 'verifierImage' | 'sidecarImages'>;

/** The verifier's run and the images it ran with. */
export interface HarborVerification {
  run: HarborVerifierRun;
  images: HarborVerifierImages;
}

/**
 * The verifier's result as stored: with its images, and the key of the attempt it verified (a lost host's is
 * not this one's).
 */
type StoredVerifierRun = HarborVerifierRun & HarborVerifierImages & { containerKey?: string };

// `set -o pipefail`: the test script's exit code, not tee's; the output is kept as Harbor keeps it.
const TEST_COMMAND = 'set -o pipefail; bash /tests/test.sh 2>&1 | tee /logs/verifier/test-stdout.txt';

export async function runHarborVerifier(docker: Docker, args: HarborVerifierArgs): Promise<HarborVerification> {
  const verifierDir = path.join(args.scratchDir, VERIFIER_DIR);
  const resultKey = verifierResultKey(args.resultKey);
  const snapshotOf = args.step?.runId ?? harborRunKey(args);
  const runId = `${snapshotOf}:verifier`;
  const earlier = await storedVerification(args, resultKey);
  if (earlier) {
    await removeContainer(docker, runId);
    return earlier;
  }
  const { harbor } = args.task;
  const s = harborSettings(harbor, args.trial.limits, args.trial.resources);
  const tests = path.join(args.workDir, 'harbor', 'tests');
  const at = { runId, snapshotOf, verifierDir, tests };
  const trialNetwork = harbor.compose ? await ensureTrialSidecars(docker, args, s) : null;
  const evidence = await collectEvidence(docker, args, s, at, trialNetwork);
  const separate = harbor.config.verifier.mode === 'separate';
  const { hosts, ...network } = await verifierNetworkOf(docker, args, s, trialNetwork, separate);
  const spec = separate
    ? { ...(await separateSpecOf(docker, args, s, at)), ...(hosts ? network : {}) }
    : { ...verifierSpecOf(args, s, at, network), ...(evidence.image ? { image: evidence.image } : {}) };
  const beforeStart = separate
    ? (c: Docker.Container) => putArtifacts(c, harbor.config.artifacts, evidence.artifactsDir)
    : undefined;
  const log = (line: string) => Context.current().log.info(line);
  const phase = { hosts, network: network.network, local: separate ? [] : localNames(harbor), log };
  const ran = await withAllowlistEgress(docker, phase, (egressEnv) =>
    runVerifierContainer(
      docker,
      args,
      { ...spec, env: { ...spec.env, ...egressEnv } },
      resultKey,
      () => resetVerifierFolders(args, verifierDir, tests),
      beforeStart,
    ),
  );
  if ('stored' in ran) return ran.stored;
  const verification = await verificationOf(docker, args, s, ran.result, verifierDir);
  await keepVerifierFiles(args, verifierDir);
  const key = args.containerKey ? { containerKey: args.containerKey } : {};
  await args.store.putJson(resultKey, { ...verification.run, ...verification.images, ...key });
  await removeContainer(docker, runId);
  return verification;
}

/**
 * Where the verifier runs, and the hosts its egress proxy lets through when it is an allowlist phase. A shared
 * verifier reaches the sidecars too: on the same network, under main's name; an allowlist one is on the trial's
 * internal network. A separate verifier is on its own: the job's network, none, or for an allowlist an internal
 * network of its own (its proxy reaches nothing of the agent's).
 */
async function verifierNetworkOf(
  docker: Docker,
  args: HarborVerifierArgs,
  s: HarborSettings,
  trialNetwork: string | null,
  separate: boolean,
): Promise<{ network: string; aliases?: string[]; hosts: string[] | null }> {
  if (separate) {
    const { networkMode, allowedHosts } = separateVerifierPolicy(args.task.harbor, args.step?.name);
    if (networkMode !== 'allowlist') return { network: s.verifierNetwork, hosts: null };
    const network = await ensureNetwork(docker, { ...trialNetworkArgs(args), purpose: 'verifier' });
    return { network, hosts: allowedHosts };
  }
  if (trialNetwork) return { network: trialNetwork, aliases: ['main'], hosts: s.verifierEgress };
  if (s.verifierEgress === null) return { network: s.verifierNetwork, hosts: null };
  return { network: await ensureNetwork(docker, trialNetworkArgs(args)), aliases: ['main'], hosts: s.verifierEgress };
}

/** The verifier's stored result, unless a lost host stored it under another key (see containerKey). */
async function storedVerification(args: HarborVerifierArgs, resultKey: string): Promise<HarborVerification | null> {
  const stored = (await args.store.getJson(resultKey)) as StoredVerifierRun | null;
  if (!stored || (stored.containerKey ?? null) !== (args.containerKey ?? null)) return null;
  const { containerKey: _key, verifierImage, sidecarImages, ...run } = stored;
  return {
    run,
    images: { ...(verifierImage ? { verifierImage } : {}), ...(sidecarImages ? { sidecarImages } : {}) },
  };
}

/** The verifier's container: test.sh on the snapshot, with tests/ at /tests and /logs/verifier on the host. */
function verifierSpecOf(
  args: HarborVerifierArgs,
  s: HarborSettings,
  at: { runId: string; snapshotOf: string; verifierDir: string; tests: string },
  network: Pick<HarborContainerSpec, 'network' | 'aliases'>,
): HarborContainerSpec {
  const { harbor } = args.task;
  return {
    workflowId: args.workflowId,
    runId: at.runId,
    image: snapshotImageOf(at.snapshotOf),
    cmd: ['bash', '-c', TEST_COMMAND],
    env: resolveEnv(harbor.config.verifier.env, process.env, `${harbor.configFile}:verifier.env`),
    binds: [`${at.tests}:/tests`, `${at.verifierDir}:/logs/verifier`],
    labels: { ...args.labels, 'assay.role': 'verifier' },
    user: harbor.config.verifier.user,
    workdir: harbor.config.environment.workdir,
    seconds: s.verifierSeconds,
    cpus: s.cpus,
    memoryGiB: s.memoryGiB,
    pids: s.pids,
    ...network,
  };
}

/**
 * A separate verifier's container (separate-verifier-spec.ts): its own image, settings and network; tests/ at
 * /tests only when the image does not hold them.
 */
async function separateSpecOf(
  docker: Docker,
  args: HarborVerifierArgs,
  s: HarborSettings,
  at: { runId: string; verifierDir: string; tests: string },
): Promise<HarborContainerSpec> {
  const { harbor } = args.task;
  const { image, bundled } = await separateVerifierImage(docker, args.task, s.buildSeconds, args.step?.name);
  return {
    ...separateVerifierSettings(harbor, args.trial, args.step?.name),
    workflowId: args.workflowId,
    runId: at.runId,
    image,
    cmd: ['bash', '-c', TEST_COMMAND],
    binds: [...(bundled ? [] : [`${at.tests}:/tests`]), `${at.verifierDir}:/logs/verifier`],
    labels: { ...args.labels, 'assay.role': 'verifier' },
    user: harbor.config.verifier.user,
    seconds: s.verifierSeconds,
  };
}

/** Before a new verifier container (never on re-attach): its two host folders made anew. */
function resetVerifierFolders(args: HarborVerifierArgs, verifierDir: string, tests: string): void {
  // No reward of an earlier attempt may be read as this one's.
  rmSync(verifierDir, { recursive: true, force: true });
  mkdirSync(verifierDir, { recursive: true });
  chmodSync(verifierDir, 0o777); // a verifier running as [verifier].user must be able to write its reward
  rmSync(tests, { recursive: true, force: true });
  // A step's: tests/ first, then steps/<name>/tests/ over it (Harbor uploads both to /tests).
  for (const dir of args.step?.testsDirs ?? [args.task.harbor.testsDir]) cpSync(dir, tests, { recursive: true });
}

/** The verifier's container run to its end (or re-attached); `stored`: the result another attempt recorded. */
async function runVerifierContainer(
  docker: Docker,
  args: HarborVerifierArgs,
  spec: HarborContainerSpec,
  resultKey: string,
  fresh: () => void,
  beforeStart?: (container: Docker.Container) => Promise<void>,
): Promise<{ result: AgentContainerResult } | { stored: HarborVerification }> {
  try {
    const result = await runHarborContainer(docker, spec, {
      finished: async () => (await storedVerification(args, resultKey)) !== null,
      fresh,
      ...(beforeStart ? { beforeStart } : {}),
    });
    return { result };
  } catch (err) {
    const other = err instanceof FinishedElsewhere ? await storedVerification(args, resultKey) : null;
    if (other) return { stored: other };
    throw err;
  }
}

/** The rewards test.sh wrote and the images the verifier ran with. */
async function verificationOf(
  docker: Docker,
  args: HarborVerifierArgs,
  s: HarborSettings,
  result: AgentContainerResult,
  verifierDir: string,
): Promise<HarborVerification> {
  const run: HarborVerifierRun = {
    ...readRewards(verifierDir),
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    durationSeconds: result.durationSeconds,
  };
  if (result.timedOut)
    run.reason = `verifier exceeded its ${s.verifierSeconds} s limit; ${run.reason ?? 'reward as written'}`;
  // As the engine reports them: the verifier's container (re-attached or not) and the sidecars it reached.
  const images: HarborVerifierImages = {
    ...(result.image ? { verifierImage: result.image.id } : {}),
    ...(args.task.harbor.compose ? { sidecarImages: await sidecarImagesOf(docker, args) } : {}),
  };
  return { run, images };
}

type Rewards = Pick<HarborVerifierRun, 'rewards' | 'rewardKey' | 'reward' | 'meanOf' | 'file' | 'reason'>;

/** Harbor's rule: reward.json if present, else reward.txt (one number, named `reward`); the score is core's scoredRewardOf. */
export function readRewards(dir: string): Rewards {
  const json = path.join(dir, 'reward.json');
  const text = path.join(dir, 'reward.txt');
  const none = (file: Rewards['file'], reason: string): Rewards => ({
    rewards: {},
    rewardKey: null,
    reward: null,
    file,
    reason,
  });
  const file = existsSync(json) ? 'reward.json' : existsSync(text) ? 'reward.txt' : null;
  if (file === null) return none(null, 'the verifier wrote neither /logs/verifier/reward.json nor reward.txt');
  const abs = path.join(dir, file);
  if (!statSync(abs).isFile() || statSync(abs).size === 0) return none(file, `/logs/verifier/${file} is empty`);
  const raw = readFileSync(abs, 'utf8');
  let rewards: Record<string, number>;
  if (file === 'reward.txt') {
    const value = Number(raw.trim());
    if (raw.trim() === '' || !Number.isFinite(value)) return none(file, `/logs/verifier/reward.txt is not a number`);
    rewards = { reward: value };
  } else {
    const parsed = parseRewardJson(raw);
    if (typeof parsed === 'string') return none(file, parsed);
    rewards = parsed;
  }
  const scored = scoredRewardOf(rewards);
  return { rewards, ...scored, file, reason: scored.reward === null ? `/logs/verifier/${file} names no reward` : null };
}

function parseRewardJson(raw: string): Record<string, number> | string {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return '/logs/verifier/reward.json is not valid JSON';
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return '/logs/verifier/reward.json must be an object of named rewards';
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(data)) {
    if (typeof v === 'boolean') out[k] = v ? 1 : 0;
    else if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
    else return `/logs/verifier/reward.json: "${k}" is not a number`;
  }
  return out;
}

/** A remote store gets the verifier's own files (a folder store already holds them where they were written). */
async function keepVerifierFiles(args: HarborVerifierArgs, verifierDir: string): Promise<void> {
  if (!isRemoteLocation(args.trial.resultsDir)) return;
  for (const rel of await listRegularFiles(verifierDir)) {
    if (rel === VERIFIER_RESULT_FILE) continue;
    await args.store.putBinary(verifierFileKey(args.resultKey, rel), readFileSync(path.join(verifierDir, rel)));
  }
}
