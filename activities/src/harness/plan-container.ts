import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Usage } from '@assay/core';
import {
  ensureHarnessImage,
  isCliHarness,
  prepareHarnessRun,
  sharedModelProxy,
  type ProxyUsage,
} from '@assay/harnesses';
import {
  HarnessNotAvailable,
  type ContainerPlan,
  type HarnessContext,
  type HarnessRunContext,
} from './container-plan.js';
import { planScriptedContainer } from './scripted-harness.js';

/** Map a scripted system to its container (synchronous: no image build, no proxy). */
export function planContainer(ctx: HarnessContext): ContainerPlan {
  switch (ctx.system.harness) {
    case 'oracle':
    case 'nop':
    case 'scripted':
      return planScriptedContainer(ctx);
    default:
      throw new HarnessNotAvailable(`harness "${ctx.system.harness}" (system "${ctx.system.id}") needs planHarnessRun`);
  }
}

export interface HarnessUsageReport {
  usage: Usage | null;
  /** Tokens the worker's key-injecting proxy counted (a cross-check of `usage`). */
  proxyUsage: ProxyUsage | null;
  /** The CLI's own session id, when it names one. */
  sessionId: string | null;
}

export interface PlannedHarnessRun {
  plan: ContainerPlan;
  /** Usage of the finished run; absent for scripted agents (their usage line is parsed from the logs). */
  collect?: (logs: string) => HarnessUsageReport;
}

/** Repository root (harness images are built from packages/harnesses/images). */
const REPO_ROOT = process.env.ASSAY_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Any runnable harness: scripted agents as before; model CLIs and `command` through @assay/harnesses. */
export async function planHarnessRun(ctx: HarnessRunContext): Promise<PlannedHarnessRun> {
  const harness = ctx.system.harness;
  if (harness === 'oracle' || harness === 'nop' || harness === 'scripted') return { plan: planContainer(ctx) };
  if (harness !== 'command' && !isCliHarness(harness))
    throw new HarnessNotAvailable(`harness "${harness}" (system "${ctx.system.id}") has no adapter`);
  try {
    const image =
      harness === 'command'
        ? String(ctx.system.settings.image ?? '')
        : (await ensureHarnessImage({ root: REPO_ROOT, harness })).tag;
    const prepared = prepareHarnessRun({
      system: ctx.system,
      runId: ctx.runId,
      sessionDir: ctx.sessionDir,
      stateFile: ctx.stateFile,
      image,
      proxy: await sharedModelProxy(),
      limits: ctx.limits,
    });
    const c = prepared.container;
    return {
      plan: {
        image: c.image,
        cmd: c.cmd,
        env: c.env,
        binds: c.binds,
        readOnlyRoot: c.readOnlyRoot,
        ...(c.network ? { network: c.network } : {}),
      },
      collect: prepared.collect,
    };
  } catch (err) {
    // Misconfiguration (no model, missing key variable, bad URL, unknown placeholder) will not fix itself.
    if (/settings\.|names no model|placeholder|is not an http/.test((err as Error).message))
      throw new HarnessNotAvailable((err as Error).message);
    throw err;
  }
}

/** Harnesses this build can run; the CLI refuses jobs naming any other. Model CLIs are listed only once their e2e test passes. */
export const RUNNABLE_HARNESSES = [
  'oracle',
  'nop',
  'scripted',
  'command',
  'claude-code',
  'codex',
  'gemini-cli',
  'qwen-code',
  'kimi-cli',
  'nanobot',
  'hermes',
] as const;
