import { HarnessNotAvailable, type ContainerPlan, type HarnessContext } from './container-plan.js';
import { planScriptedContainer } from './scripted-harness.js';

/** Map a system to its container. Model-driven CLIs arrive with the harness adapters. */
export function planContainer(ctx: HarnessContext): ContainerPlan {
  switch (ctx.system.harness) {
    case 'oracle':
    case 'nop':
    case 'scripted':
      return planScriptedContainer(ctx);
    default:
      throw new HarnessNotAvailable(`harness "${ctx.system.harness}" (system "${ctx.system.id}") has no adapter yet`);
  }
}

/** Harnesses this build can run; the CLI refuses jobs naming any other. */
export const RUNNABLE_HARNESSES = ['oracle', 'nop', 'scripted'] as const;
