// Scripted agents (oracle, nop, flawed) run our own python script in a container.
// Only these test instruments get the evaluator's reference, read-only at /oracle;
// no model-driven harness is ever given it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { SystemSpec } from '@assay/core';
import { HarnessNotAvailable, type ContainerPlan, type HarnessContext } from './container-plan.js';

export const SCRIPTED_AGENTS = [
  'oracle',
  'nop',
  'missing-deliverable',
  'wrong-type',
  'no-cached-values',
  'correction-not-applied',
  'superseded-decision',
] as const;
export type ScriptedAgent = (typeof SCRIPTED_AGENTS)[number];

export function scriptedAgentOf(system: SystemSpec): ScriptedAgent {
  if (system.harness === 'oracle' || system.harness === 'nop') return system.harness;
  const agent = system.settings.agent;
  if (typeof agent !== 'string' || !(SCRIPTED_AGENTS as readonly string[]).includes(agent)) {
    throw new HarnessNotAvailable(
      `system "${system.id}": settings.agent must be one of ${SCRIPTED_AGENTS.join(', ')} for the scripted harness`,
    );
  }
  return agent as ScriptedAgent;
}

export function planScriptedContainer(ctx: HarnessContext): ContainerPlan {
  const agent = scriptedAgentOf(ctx.system);
  const delay = Number(ctx.system.settings.delaySeconds ?? 0);
  const binds: string[] = [];
  if (agent !== 'nop') {
    // Only folders that exist: Docker would otherwise create empty root-owned ones in the dataset.
    for (const part of ['reference', 'flaws']) {
      const dir = path.join(ctx.evaluatorDir, part);
      if (existsSync(dir)) binds.push(`${dir}:/oracle/${part}:ro`);
    }
  }
  return {
    image: ctx.images.scriptedAgent,
    cmd: [],
    env: { ASSAY_AGENT: agent, ASSAY_DELAY_SECONDS: String(Number.isFinite(delay) ? delay : 0) },
    binds,
    readOnlyRoot: true,
  };
}
