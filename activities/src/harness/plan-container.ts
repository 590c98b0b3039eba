import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HARNESS_NAMES, isModelHarness, isScriptedHarness, type HarnessName, type Usage } from '@assay/core';
import {
  HarnessConfigError,
  ensureHarnessImage,
  harnessTrajectory,
  prepareHarnessRun,
  sharedModelProxy,
  type AtifTrajectory,
  type HarnessContainerSpec,
  type ProxyUsage,
  type TrajectoryAbout,
} from '@assay/harnesses';
import { HarnessNotAvailable, type HarnessContext, type HarnessRunContext } from './harness-context.js';
import { planScriptedContainer } from './scripted-harness.js';

/** Map a scripted system to its container (synchronous: no image build, no proxy). */
function planContainer(ctx: HarnessContext): HarnessContainerSpec {
  if (isScriptedHarness(ctx.system.harness)) return planScriptedContainer(ctx);
  throw new HarnessNotAvailable(`harness "${ctx.system.harness}" (system "${ctx.system.id}") needs planHarnessRun`);
}

export interface HarnessUsageReport {
  usage: Usage | null;
  /** Tokens the worker's key-injecting proxy counted (a cross-check of `usage`). */
  proxyUsage: ProxyUsage | null;
  /** The CLI's own session id, when it names one. */
  sessionId: string | null;
}

export interface PlannedHarnessRun {
  plan: HarnessContainerSpec;
  /** Usage of the finished run; absent for scripted agents (their usage line is parsed from the logs). */
  collect?: (logs: string) => HarnessUsageReport;
  /** Model routes: throttled answers (429 / overloaded) the proxy has seen for this run so far. */
  throttled?: () => number;
  /** A model CLI on its own image: the version the CLI printed when its image was built (absent: none recorded). */
  harnessVersion?: string;
  /** The finished run as an ATIF trajectory (null: no steps assay can read; absent: `command`). */
  trajectory?: (logs: string, about: TrajectoryAbout) => AtifTrajectory | null;
}

/** Repository root (harness images are built from packages/harnesses/images). */
const REPO_ROOT = process.env.ASSAY_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Any runnable harness: a scripted agent in the scripted-agent image (planContainer); model CLIs and `command`
 * through @assay/harnesses.
 */
export async function planHarnessRun(ctx: HarnessRunContext): Promise<PlannedHarnessRun> {
  const harness = ctx.system.harness;
  if (isScriptedHarness(harness))
    return {
      plan: planContainer(ctx),
      // The script's version is its image (content-addressed), there being no release number.
      trajectory: (logs, about) =>
        harnessTrajectory({
          harness,
          logs,
          sessionDir: ctx.sessionDir,
          version: ctx.images.scriptedAgent,
          ...about,
          ...(ctx.system.model ? { model: ctx.system.model } : {}),
        }),
    };
  if (harness !== 'command' && !isModelHarness(harness))
    throw new HarnessNotAvailable(`harness "${String(harness)}" (system "${ctx.system.id}") has no adapter`);
  try {
    // A model CLI's image built elsewhere (a Harbor task's) has its version told by whoever built it.
    const built = harness !== 'command' && !ctx.image ? await ensureHarnessImage({ root: REPO_ROOT, harness }) : null;
    const image = harness === 'command' ? String(ctx.system.settings.image ?? '') : (ctx.image ?? built?.tag ?? '');
    const proxy = await sharedModelProxy();
    const prepared = prepareHarnessRun({
      system: ctx.system,
      runId: ctx.runId,
      sessionDir: ctx.sessionDir,
      stateFile: ctx.stateFile,
      image,
      proxy,
      limits: ctx.limits,
      ...(ctx.relay ? { relay: true } : {}),
      ...(ctx.taskTools ? { taskTools: ctx.taskTools } : {}),
      ...(ctx.resume ? { resume: ctx.resume } : {}),
      ...(ctx.deliverablesDir ? { outputsDir: `/workspace/${ctx.deliverablesDir}` } : {}),
    });
    // Served before the container starts (again by a worker that replaced one: the socket died with it).
    if (prepared.relaySocket && prepared.routeId) await proxy.serveRoute(prepared.routeId, prepared.relaySocket);
    return {
      plan: prepared.container,
      collect: prepared.collect,
      throttled: prepared.throttled,
      ...(prepared.trajectory ? { trajectory: prepared.trajectory } : {}),
      ...(built?.harnessVersion ? { harnessVersion: built.harnessVersion } : {}),
    };
  } catch (err) {
    // Misconfiguration (no model, missing key variable, bad URL, bad command template) will not fix itself.
    if (err instanceof HarnessConfigError) throw new HarnessNotAvailable(err.message);
    throw err;
  }
}

/** Harnesses this build can run; the CLI refuses jobs naming any other. A model CLI belongs here once its e2e test passes (all do). */
export const RUNNABLE_HARNESSES: readonly HarnessName[] = HARNESS_NAMES;
