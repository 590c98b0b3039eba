// A multi-step Harbor task's steps run from the workflow, each step's agent and verifier an activity of its
// own: the path of histories recorded by the release before 'assay-steps-on-host' (since then the steps run
// inside runAgentAndFinish on the trial's host). The rules are core's runHarborSteps, shared with that
// activity. Removed with the patch (docs/architecture.md, "Changing a workflow").
import { deprecatePatch } from '@temporalio/workflow';
import type { AgentRun, PreparedWorkspace, TrialActivities } from '@assay/activities';
import { runHarborSteps, type HarborStepsPlan, type TrialInput } from '@assay/core/pure';

/**
 * Deprecated (docs/architecture.md, "Changing a workflow"); the next release removes the calls.
 * 'harbor-multi-step': the step loop; 'harbor-step-setup': a step whose workdir/setup.sh failed (its
 * runAgent result says so) ends the trial without its verifier.
 */
const HARBOR_STEPS_PATCH = 'harbor-multi-step';
const HARBOR_STEP_SETUP_PATCH = 'harbor-step-setup';

type Result<K extends keyof TrialActivities> = Awaited<ReturnType<TrialActivities[K]>>;

interface StepActivities {
  agent: Pick<TrialActivities, 'runAgent'>;
  verifier: Pick<TrialActivities, 'evaluateTrial'>;
}

export async function runStepsFromWorkflow(
  input: TrialInput,
  workspace: PreparedWorkspace,
  plan: HarborStepsPlan,
  host: StepActivities,
  /** containerKey: set once the trial has moved host, so every step runs again there instead of reusing the lost host's. */
  ctx: { workflowId: string; containerKey?: string; setStage: (stage: string) => void },
): Promise<{ run: AgentRun; deliverables: []; evaluation: Result<'evaluateTrial'> }> {
  deprecatePatch(HARBOR_STEPS_PATCH);
  const key = ctx.containerKey ? { containerKey: ctx.containerKey } : {};
  const of = `/${plan.steps.length}`;
  const ran = await runHarborSteps(plan, {
    agent: (index, name) => {
      ctx.setStage(`step ${index}${of} ${name}: agent`);
      return host.agent.runAgent({ trial: input, workspace, workflowId: ctx.workflowId, step: index, ...key });
    },
    verifier: (index, name) => {
      ctx.setStage(`step ${index}${of} ${name}: verifier`);
      return host.verifier.evaluateTrial({ trial: input, workspace, deliverables: [], step: index, ...key });
    },
    onSetupFailure: () => deprecatePatch(HARBOR_STEP_SETUP_PATCH),
  });
  // A Harbor task has no deliverables or rubric: what its verifier's evaluation holds besides the reward.
  const base = ran.last ?? {
    verdicts: [],
    formatCompliance: { required: false, compliant: true, missing: [], wrongType: [] },
  };
  return { run: ran.run, deliverables: [], evaluation: { ...base, verifier: ran.verifier, steps: ran.steps } };
}
