// The agent phase of a Harbor trial: the container harbor-agent-plan.ts plans (oracle, nop or a model CLI)
// runs in the task's environment. Its filesystem is then committed as the trial's snapshot image, which the
// verifier runs on: tests/ are never in the agent's container. Exactly once, as for assay's own agents: the
// result is written beside the trial and returned as is on a retry.
import { createHash } from 'node:crypto';
import { Context } from '@temporalio/activity';
import type Docker from 'dockerode';
import { AGENT_STARTED_FILE, agentResultKey, trajectoryKey, transcriptKey, type ResultsStore } from '@assay/results';
import type { HarborTask } from '@assay/benchmark';
import type { TrialInput } from '@assay/core';
import type { HarnessUsageReport } from '../harness/plan-container.js';
import {
  FinishedElsewhere,
  containerNameFor,
  removeContainer,
  type AgentContainerResult,
} from '../run-agent-container.js';
import { agentEndReason, isThisAttempt, trajectoryOf, type AgentRun } from '../run-harness.js';
import { cancelRequested, heartbeatWhile } from '../heartbeat.js';
import { throttleForwarder, type NotifyThrottled } from '../forward-throttles.js';
import { planHarborAgent, type HarborAgentPlan, type HarborPlanArgs } from './harbor-agent-plan.js';
import { containerExists, runHarborContainer, withPhaseEnv, type HarborContainerSpec } from './harbor-container.js';
import { ensureHarborImage } from './harbor-image.js';
import { harborSettings, resolveEnv, type HarborSettings } from './harbor-settings.js';
import { isHarborEnvironmentFailure } from './harbor-environment-failure.js';
import { gatedCommand, passHealthchecks, type HealthcheckRun } from './harbor-healthcheck.js';
import { ensureNetwork, removeSidecars } from './harbor-sidecars.js';
import { composeMainEnv, freshSidecarsUnlessRunning, localNames, trialNetworkArgs } from './harbor-trial-network.js';
import { withAllowlistEgress } from './allowlist-egress.js';
import { runStepSetup, type StepSetupArgs, type StepSetupOutcome } from './harbor-step-setup.js';

export const SNAPSHOT_REPO = 'assay/harbor-snapshot';

const building = () => ({ phase: 'building the Harbor environment and harness' });

/** The image holding the agent's finished container, named by the trial's workflow id. */
export function snapshotImageOf(workflowId: string): string {
  return `${SNAPSHOT_REPO}:${createHash('sha256').update(workflowId).digest('hex').slice(0, 24)}`;
}

export interface HarborAgentArgs {
  trial: TrialInput;
  task: { id: string; harbor: HarborTask };
  workflowId: string;
  /** The job's results store and the trial's key in it: agent-result.json and transcript.log go there. */
  store: ResultsStore;
  resultKey: string;
  /** The trial's scratch folder (its work volume): the solution's copy, the agent's /logs/agent, a CLI's session. */
  workDir: string;
  /** Holds instruction.md (written by prepareWorkspace). */
  instructionDir: string;
  labels: Record<string, string>;
  /** Tells the trial's job its endpoint answered 429 / overloaded (back-pressure); absent: nothing is reported. */
  notifyThrottled?: NotifyThrottled;
  /**
   * A step of a multi-step task: its own container and snapshot, started from the previous step's snapshot;
   * with a steps/<name>/workdir/, from its setup snapshot (harbor-step-setup.ts) instead.
   */
  step?: {
    runId: string;
    baseImage: string | null;
    name?: string;
    workdirDir?: string | null;
    /** The step continues this earlier step's CLI session (resume_trajectory): its name and result key. */
    resumeFrom?: { name: string; resultKey: string };
  };
  /**
   * Set once the trial has moved host (`<workflowId>:move-N`): names this attempt's containers and snapshots,
   * and tells its results from those the lost host left in the store.
   */
  containerKey?: string;
}

/** What names an attempt's containers and snapshots: the workflow id, or its key after a move. */
export const harborRunKey = (args: { workflowId: string; containerKey?: string }): string =>
  args.containerKey ?? args.workflowId;

/** A step's agent result: whether its container was started again (gone, no result) from the last checkpoint. */
type HarborStepAgentRun = AgentRun & { restarted: boolean };

/** A model CLI's throttled answers go to the job as on assay's own tasks; oracle and nop have no endpoint. */
export function harborThrottleForwarder(
  args: Pick<HarborAgentArgs, 'workflowId' | 'notifyThrottled'> & { trial: Pick<TrialInput, 'jobId' | 'system'> },
  plan: Pick<HarborAgentPlan, 'throttled'>,
) {
  return throttleForwarder({
    jobId: args.trial.jobId,
    unit: args.workflowId,
    system: args.trial.system,
    throttled: plan.throttled,
    notify: args.notifyThrottled,
  });
}

export async function runHarborAgent(docker: Docker, args: HarborAgentArgs): Promise<AgentRun> {
  const resultKey = agentResultKey(args.resultKey);
  const runId = args.step?.runId ?? harborRunKey(args);
  const earlier = await storedAgentRun(args, resultKey);
  if (earlier) {
    await removeContainer(docker, runId); // left behind when a worker died just after the result
    return earlier;
  }
  const { harbor } = args.task;
  const s = harborSettings(harbor, args.trial.limits, args.trial.resources);
  const ctx = Context.current();
  const taskEnv = resolveEnv(harbor.config.environment.env, process.env, `${harbor.configFile}:environment.env`);
  const plan = await planAgent(docker, args, s, taskEnv, runId);
  const planned: PlannedAgent = { docker, args, runId, resultKey, s, plan, ctx };
  const setupArgs = stepSetupArgs(args, plan, taskEnv, runId);
  const network = await agentNetworkOf(planned, setupArgs);
  const phase = {
    hosts: s.agentEgress,
    network: network.network,
    local: localNames(harbor),
    log: (line: string) => ctx.log.info(line),
  };
  return withAllowlistEgress(docker, phase, async (egressEnv) => {
    const setupWithEgress = setupArgs && { ...setupArgs, phaseEnv: egressEnv };
    const setup = setupWithEgress ? await setUpStep(planned, setupWithEgress, network) : null;
    if (setup?.image === null) return setupFailedRun(args, setup, resultKey, ctx.info.attempt);
    // After the setup: a start noted means the agent's own container was made once already.
    const restarted = args.step ? await noteStepStart(docker, args, runId) : null;
    const image = setup?.image ?? args.step?.baseImage ?? plan.image;
    const checks = await healthchecksOf(docker, args, plan);
    const agentSpec = agentSpecOf(args, plan, s, network, runId);
    const gated = checks.length > 0 ? gatedCommand(runId, agentSpec.cmd) : agentSpec.cmd;
    const cmd = withPhaseEnv(gated, { ...solutionEnvOf(args), ...egressEnv });
    const ran = await runHarborAgentContainer(planned, { ...agentSpec, image, cmd }, setup, checks);
    if ('stored' in ran) return ran.stored;
    return keepAgentRun(planned, ran.result, restarted, setup);
  });
}

/** What the phases after the plan work from. */
interface PlannedAgent {
  docker: Docker;
  args: HarborAgentArgs;
  runId: string;
  /** agent-result.json's key. */
  resultKey: string;
  s: HarborSettings;
  plan: HarborAgentPlan;
  ctx: Context;
}

// A result the lost host wrote before a move is not this attempt's: its container and snapshot were there.
async function storedAgentRun(args: HarborAgentArgs, resultKey: string): Promise<AgentRun | null> {
  const run = (await args.store.getJson(resultKey)) as AgentRun | null;
  return run && isThisAttempt(run, args.containerKey) ? run : null;
}

/** The task's image built (or found) and the agent's container planned on it. */
async function planAgent(
  docker: Docker,
  args: HarborAgentArgs,
  s: HarborSettings,
  taskEnv: Record<string, string>,
  runId: string,
): Promise<HarborAgentPlan> {
  return heartbeatWhile(building, 1_000, async () => {
    const taskImage = await ensureHarborImage(docker, args.task, s.buildSeconds);
    const resume = await resumeOf(args);
    return planHarborAgent(docker, { ...args, workflowId: runId, taskImage, env: taskEnv, settings: s, ...resume });
  });
}

/** The oracle's [solution.env], resolved: its process's, never the container's (withPhaseEnv). */
function solutionEnvOf(args: HarborAgentArgs): Record<string, string> {
  const { harbor } = args.task;
  if (args.trial.system.harness !== 'oracle') return {};
  return resolveEnv(harbor.config.solution.env, process.env, `${harbor.configFile}:solution.env`);
}

/** A step that resumes: the step it continues, and the session id that step's CLI reported (hermes resumes by it). */
async function resumeOf(args: HarborAgentArgs): Promise<Pick<HarborPlanArgs, 'resume'>> {
  const from = args.step?.resumeFrom;
  if (!from) return {};
  const previous = (await args.store.getJson(agentResultKey(from.resultKey))) as AgentRun | null;
  return { resume: { fromStep: from.name, sessionId: previous?.harnessSessionId ?? null } };
}

/** Sidecars before the agent (found, not restarted, on a retry); main joins their network as `main`. */
async function agentNetworkOf(
  { docker, args, s, runId, plan }: PlannedAgent,
  setupArgs: Omit<StepSetupArgs, 'image' | 'network' | 'limits'> | null,
): Promise<Pick<HarborContainerSpec, 'network' | 'aliases'>> {
  // An allowlist phase: the trial's internal network, its way out the egress proxy on the network's gateway.
  if (!args.task.harbor.compose && s.agentEgress !== null)
    return { network: await ensureNetwork(docker, trialNetworkArgs(args)), aliases: ['main'] };
  if (!args.task.harbor.compose) return { network: plan.network };
  const network = await heartbeatWhile(building, 1_000, () =>
    freshSidecarsUnlessRunning(docker, args, s, runId, setupArgs),
  ).catch(async (err: unknown) => {
    // The trial ends here (an init job that failed): nothing retries, so its sidecars go now.
    if (isHarborEnvironmentFailure(err)) await removeSidecars(docker, args.workflowId);
    throw err;
  });
  return { network, aliases: ['main'] };
}

/** A step's setup.sh, on the image the step starts from; cancelled, the trial's sidecars go with it. */
async function setUpStep(
  { docker, args, s, plan, ctx }: PlannedAgent,
  setupArgs: Omit<StepSetupArgs, 'image' | 'network' | 'limits'>,
  network: Pick<HarborContainerSpec, 'network' | 'aliases'>,
): Promise<StepSetupOutcome> {
  const image = args.step?.baseImage ?? plan.image;
  try {
    const limits = { cpus: s.cpus, memoryGiB: s.memoryGiB, pids: s.pids };
    return await runStepSetup(docker, { ...setupArgs, image, network, limits });
  } catch (err) {
    if (args.task.harbor.compose && ctx.cancellationSignal.aborted) await removeSidecars(docker, args.workflowId);
    throw err;
  }
}

/** The agent's container run to its end (or re-attached); `stored`: the result another attempt recorded. */
async function runHarborAgentContainer(
  { docker, args, resultKey, plan, ctx }: PlannedAgent,
  spec: HarborContainerSpec,
  setup: StepSetupOutcome | null,
  checks: HealthcheckRun[],
): Promise<{ result: AgentContainerResult } | { stored: AgentRun }> {
  const throttles = harborThrottleForwarder(args, plan);
  const healthchecks = {
    afterStart: (container: Docker.Container, startedNow: boolean) =>
      passHealthchecks(docker, container, {
        runId: spec.runId,
        checks,
        seconds: spec.seconds,
        startedNow,
        remove: () => removeContainer(docker, spec.runId),
      }),
  };
  try {
    const result = await runHarborContainer(docker, spec, {
      finished: async () => (await storedAgentRun(args, resultKey)) !== null,
      fresh: plan.fresh,
      heartbeat: () => throttles.poll(),
      ...(checks.length > 0 ? healthchecks : {}),
    });
    return { result };
  } catch (err) {
    const other = err instanceof FinishedElsewhere ? await storedAgentRun(args, resultKey) : null;
    if (other) return { stored: other };
    // Cancelled (the container is gone too): its sidecars go with it, so the next run starts them fresh; and
    // so does the step's setup snapshot, so that the next run's setup.sh runs again against fresh sidecars.
    // Only a requested cancel: a timed-out or shut-down attempt leaves the agent's container to its retry.
    if (setup?.image && cancelRequested(ctx)) await removeImage(docker, setup.image);
    // A failed healthcheck ends the trial: nothing retries, so its sidecars go now too.
    const ending = ctx.cancellationSignal.aborted || isHarborEnvironmentFailure(err);
    if (args.task.harbor.compose && ending) await removeSidecars(docker, args.workflowId);
    throw err;
  } finally {
    await throttles.flush();
  }
}

/**
 * The checks the agent's container must pass before its agent starts: the task's (Harbor runs it once, after the
 * environment starts; each container here runs the entrypoint anew, so before every step's agent too), as the
 * image's own user (Harbor's default), then the step's, as the step's agent user (after its setup).
 */
async function healthchecksOf(docker: Docker, args: HarborAgentArgs, plan: HarborAgentPlan): Promise<HealthcheckRun[]> {
  const { harbor } = args.task;
  const checks: HealthcheckRun[] = [];
  const taskCheck = harbor.config.environment.healthcheck;
  if (taskCheck) {
    const imageUser = (await docker.getImage(plan.image).inspect()).Config.User;
    const user = imageUser === '' ? '0' : imageUser;
    checks.push({ check: taskCheck, field: `${harbor.configFile}:environment.healthcheck`, prefix: '', user });
  }
  const index = harbor.steps?.findIndex((st) => st.name === args.step?.name) ?? -1;
  const step = harbor.steps?.[index];
  if (step?.healthcheck) {
    const field = `${harbor.configFile}:steps[${index}].healthcheck`;
    const prefix = `Step '${step.name}' healthcheck failed: `;
    checks.push({ check: step.healthcheck, field, prefix, user: plan.user });
  }
  return checks;
}

/** The container's filesystem kept as the trial's snapshot, then its transcript and result; then it goes. */
async function keepAgentRun(
  { docker, args, runId, resultKey, s, plan, ctx }: PlannedAgent,
  result: AgentContainerResult,
  restarted: boolean | null,
  setup: StepSetupOutcome | null,
): Promise<AgentRun> {
  // The snapshot first: once the result exists, nothing re-creates the container it was taken from.
  await docker.getContainer(containerNameFor(runId)).commit(snapshotTagParts(runId));
  const run: AgentRun | HarborStepAgentRun = {
    ...agentRunOf(result, s.agentSeconds, ctx.info.attempt, plan.collect?.(result.logs) ?? null),
    ...(await startImageOf(docker, plan.image, result)),
    ...(plan.harnessVersion ? { harnessVersion: plan.harnessVersion } : {}),
    ...(restarted === null ? {} : { restarted }),
    ...(setup ? { setup: setup.setup } : {}),
    ...(args.containerKey ? { containerKey: args.containerKey } : {}),
  };
  const trajectory = await trajectoryOf(plan, result.logs, args.instructionDir);
  // The transcript first: agent-result.json is what marks the run finished.
  await args.store.putText(transcriptKey(args.resultKey), result.logs);
  if (trajectory) await args.store.putJson(trajectoryKey(args.resultKey), trajectory);
  await args.store.putJson(resultKey, run);
  await removeContainer(docker, runId);
  return run;
}

/**
 * Before a step's container is made: a start noted by an earlier attempt means the container it made is gone
 * without a result, so this one restarts the step from the previous checkpoint (recorded, never hidden).
 */
async function noteStepStart(docker: Docker, args: HarborAgentArgs, runId: string): Promise<boolean> {
  const key = `${args.resultKey}/${AGENT_STARTED_FILE}`;
  const noted = (await args.store.getJson(key)) as { starts: number; containerKey?: string } | null;
  // Starts noted before a move were the lost host's: the moved trial starts its steps afresh, not again.
  const before = noted && (noted.containerKey ?? null) === (args.containerKey ?? null) ? noted : null;
  if (await containerExists(docker, runId)) return (before?.starts ?? 1) > 1;
  const containerKey = args.containerKey ? { containerKey: args.containerKey } : {};
  await args.store.putJson(key, { starts: (before?.starts ?? 0) + 1, ...containerKey });
  return before !== null;
}

/** A step with a workdir/: what its setup needs but the image it starts from and the network (null: none). */
function stepSetupArgs(
  args: HarborAgentArgs,
  plan: HarborAgentPlan,
  taskEnv: Record<string, string>,
  runId: string,
): Omit<StepSetupArgs, 'image' | 'network' | 'limits'> | null {
  const { step } = args;
  if (!step?.workdirDir || !step.name) return null;
  return {
    stepName: step.name,
    workdirDir: step.workdirDir,
    runId,
    workflowId: args.workflowId,
    ...(args.containerKey ? { containerKey: args.containerKey } : {}),
    store: args.store,
    resultKey: args.resultKey,
    user: plan.user,
    workdir: plan.workdir,
    // The task's environment as Harbor's exec has it: not [solution.env], which only the oracle's run gets.
    env: { ...taskEnv, ...composeMainEnv(args.task.harbor) },
    labels: args.labels,
    seconds: args.trial.limits.setupSeconds,
  };
}

/**
 * The step's result when its setup.sh failed: its agent never ran (no exit code, no time), the reason is the
 * setup's. Written as the step's agent result, so a retry returns it and the workflow skips the verifier.
 */
async function setupFailedRun(
  args: HarborAgentArgs,
  setup: StepSetupOutcome,
  resultKey: string,
  attempt: number,
): Promise<HarborStepAgentRun> {
  const run: HarborStepAgentRun = {
    exitCode: null,
    timedOut: false,
    reason: `not run: ${setup.setup.reason ?? 'the step setup failed'}`,
    startedAt: setup.endedAt,
    endedAt: setup.endedAt,
    durationSeconds: 0,
    containerAttempts: attempt,
    usage: null,
    restarted: false,
    setup: setup.setup,
    ...(args.containerKey ? { containerKey: args.containerKey } : {}),
  };
  await args.store.putJson(resultKey, run);
  return run;
}

async function removeImage(docker: Docker, image: string): Promise<void> {
  await docker
    .getImage(image)
    .remove({ force: true })
    .catch((err: { statusCode?: number }) => {
      if (err.statusCode !== 404) throw err;
    });
}

/** The agent's container: the plan, the task's limits, and main's part of the compose file. */
function agentSpecOf(
  args: HarborAgentArgs,
  plan: HarborAgentPlan,
  s: HarborSettings,
  network: Pick<HarborContainerSpec, 'network' | 'aliases'>,
  runId: string,
): HarborContainerSpec {
  return {
    workflowId: args.workflowId,
    runId,
    image: args.step?.baseImage ?? plan.image,
    cmd: plan.cmd,
    env: { ...plan.env, ...composeMainEnv(args.task.harbor) },
    binds: plan.binds,
    labels: args.labels,
    user: plan.user,
    workdir: plan.workdir,
    seconds: s.agentSeconds,
    cpus: s.cpus,
    memoryGiB: s.memoryGiB,
    pids: s.pids,
    ...network,
  };
}

function agentRunOf(
  result: AgentContainerResult,
  seconds: number,
  attempt: number,
  reported: HarnessUsageReport | null,
): AgentRun {
  return {
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    reason: agentEndReason(result, seconds),
    startedAt: result.startedAt,
    endedAt: result.endedAt,
    durationSeconds: result.durationSeconds,
    containerAttempts: attempt,
    usage: reported?.usage ?? null,
    ...(reported ? { proxyUsage: reported.proxyUsage, harnessSessionId: reported.sessionId } : {}),
  };
}

/**
 * The image the trial's environment started from (the task's, or a model CLI's layered on it): the one the
 * container ran, unless it ran a snapshot (a later step, a step's setup), then that image's id by its name.
 */
async function startImageOf(
  docker: Docker,
  tag: string,
  result: AgentContainerResult,
): Promise<{ image?: { id: string; tag: string } }> {
  if (result.image?.tag === tag) return { image: result.image };
  const id = await docker
    .getImage(tag)
    .inspect()
    .then(
      (info) => info.Id,
      () => null,
    );
  return id ? { image: { id, tag } } : {};
}

function snapshotTagParts(workflowId: string): { repo: string; tag: string } {
  const [repo, tag] = snapshotImageOf(workflowId).split(':') as [string, string];
  return { repo, tag };
}
