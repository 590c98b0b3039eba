// A step of a multi-step Harbor task as the agent and verifier phases see it: the task with the step's
// overrides applied (Harbor's rules in trial/multi_step.py: a step's agent timeout and users fall back to the
// task's, its verifier env goes over [verifier.env], its artifacts and collect hooks follow the task's, its
// agent's and verifier's network_mode replace the task's for the step), and
// the names of its container and snapshot.
import type { HarborStep, HarborTask } from '@assay/benchmark';
import { isModelHarness, type SystemSpec } from '@assay/core';
import { setupRunIdOf } from './harbor-step-setup.js';
import { snapshotImageOf } from './run-harbor-agent.js';

/** Step `index` (1-based) of the trial: its agent container and its snapshot are named by this. */
export const stepRunId = (workflowId: string, index: number): string => `${workflowId}:step-${index}`;

/** Where step `index` starts: the task's image for the first, the previous step's snapshot after it. */
export const stepBaseImage = (workflowId: string, index: number): string | null =>
  index > 1 ? snapshotImageOf(stepRunId(workflowId, index - 1)) : null;

/**
 * Harbor's _step_resumes: under resume_trajectory every step after the first continues the session of the step
 * before. Only a model CLI has one (the job check refuses oracle and nop, as Harbor refuses an agent without resume).
 */
export const stepResumes = (system: SystemSpec, index: number): boolean =>
  system.harbor?.resumeTrajectory === true && index > 1 && isModelHarness(system.harness);

export function stepOf(task: HarborTask, index: number): HarborStep {
  const step = task.steps?.[index - 1];
  if (!step) throw new Error(`${task.configFile}: the task has no step ${index}`);
  return step;
}

export function harborTaskForStep(task: HarborTask, step: HarborStep): HarborTask {
  const { agent, verifier } = task.config;
  return {
    ...task,
    instructionFile: step.instructionFile,
    solutionDir: step.solutionDir,
    config: {
      ...task.config,
      agent: {
        ...agent,
        timeoutSec: step.agent.timeoutSec ?? agent.timeoutSec,
        user: step.agent.user ?? agent.user,
        ...phasePolicyOf(step.agent, agent),
      },
      verifier: {
        ...verifier,
        ...phasePolicyOf(step.verifier, verifier),
        timeoutSec: step.verifier.timeoutSec,
        user: step.verifier.user ?? verifier.user,
        env: { ...verifier.env, ...step.verifier.env },
        // Harbor's collection pass for a step: the task's hooks and entries, then the step's.
        collect: [...verifier.collect, ...step.collect],
        // Harbor's resolve_step_verifier_mode; the step's own environment is looked up by name (separate-verifier-spec.ts).
        mode: step.verifier.mode ?? verifier.mode,
      },
      artifacts: [...task.config.artifacts, ...step.artifacts],
    },
  };
}

/** Harbor's _explicit_phase_policy: a step's network_mode, with its own allowed_hosts, else the task's phase's. */
function phasePolicyOf(step: PhasePolicy, task: PhasePolicy): PhasePolicy {
  const { networkMode, allowedHosts } = step.networkMode === null ? task : step;
  return { networkMode, allowedHosts };
}

type PhasePolicy = Pick<HarborTask['config']['agent'], 'networkMode' | 'allowedHosts'>;

/** Every snapshot a trial of this task may have made (one per step and step setup, or the single-step trial's). */
export function snapshotsOf(task: HarborTask, workflowId: string): string[] {
  if (!task.steps) return [snapshotImageOf(workflowId)];
  return task.steps.flatMap((s, i) => {
    const runId = stepRunId(workflowId, i + 1);
    return [snapshotImageOf(runId), ...(s.workdirDir ? [snapshotImageOf(setupRunIdOf(runId))] : [])];
  });
}
