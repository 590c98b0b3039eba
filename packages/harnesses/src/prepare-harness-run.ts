// Turn a system (harness + model + settings) into one container run: the session folder
// seeded with the CLI's config, a proxy route holding the real key, the container's
// command/env/mounts, and afterwards the usage as the CLI reported it and as the proxy saw it.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_UPSTREAM, type SystemSpec, type Usage } from '@assay/core';
import { ADAPTERS, isCliHarness } from './adapters/index.js';
import { planCommandHarness } from './adapters/command.js';
import type { AtifTrajectory } from './atif-trajectory.js';
import { HarnessConfigError } from './harness-config-error.js';
import { harnessTrajectory } from './harness-trajectory.js';
import { SESSION_DIR, type AdapterContext, type HarnessAdapter, type ModelApi } from './harness-adapter.js';
import { fileSizes } from './json-lines.js';
import { messages } from './messages.js';
import type { ModelProxy, ProxyUsage } from './model-proxy.js';
import { prepareProxyRelay } from './proxy-relay.js';
import { harnessCommand } from './shell-command.js';
import { withTaskTools, type TaskTools } from './with-task-tools.js';

/** Provider endpoints used when a system gives no settings.baseUrl (in core: the job computes endpoints too). */
export { DEFAULT_UPSTREAM };

/** What the container sees instead of a key. */
export const DUMMY_API_KEY = 'assay-proxy-injects-the-real-key';

/** What the worker needs to start a harness container (scripted agents, model CLIs and `command` alike). */
export interface HarnessContainerSpec {
  image: string;
  /** Empty: the image's own command. */
  cmd: string[];
  env: Record<string, string>;
  /** Extra bind mounts (`host:container[:ro]`) besides /workspace and /assay. */
  binds: string[];
  readOnlyRoot: boolean;
  /** Network the harness needs (model CLIs: `host`, to reach the worker's model proxy); default: the job's. */
  network?: 'none' | 'host' | 'bridge';
}

export interface PrepareHarnessRunArgs {
  system: SystemSpec;
  /** Stable per agent run (the workflow id): names the proxy route, so a retried activity reuses it. */
  runId: string;
  /** Host folder persisted across the subtasks of one trial; mounted at /session (also HOME). */
  sessionDir: string;
  /** Image tag of the harness CLI (command harness: settings.image is used). */
  image: string;
  proxy: ModelProxy;
  limits: { maxSteps: number; agentSeconds: number };
  /** Where the real key is looked up (default process.env). */
  environment?: Record<string, string | undefined>;
  /**
   * File keeping the session folder's pre-run state (file sizes). Written on the first
   * preparation and read on later ones, so an activity retried after a worker crash (which
   * re-attaches to the running container) still counts usage from the true start of the run.
   */
  stateFile?: string;
  /**
   * Reach the proxy through the relay (proxy-relay.ts) instead of the host's network: the container keeps the
   * caller's network, and the caller serves `relaySocket` (ModelProxy.serveRoute) before starting it.
   */
  relay?: boolean;
  /** The container path deliverables go to: the command harness's {outputs_dir} (default /workspace/outputs). */
  outputsDir?: string;
  /** A Harbor task's skills_dir and mcp_servers, given to the CLI as Harbor's agent for it does. */
  taskTools?: TaskTools;
  /**
   * Continue the session the session folder holds (a Harbor step under resume_trajectory): the CLI's resume argv
   * always, with the previous run's session id where the CLI resumes by id. Absent: resume only when it holds one.
   */
  resume?: { sessionId: string | null };
}

export interface HarnessRunUsage {
  /** As the harness reported it (its output or session files); null when it reports none. */
  usage: Usage | null;
  /** As the worker's proxy counted it from the provider's responses. */
  proxyUsage: ProxyUsage | null;
  sessionId: string | null;
}

export interface PreparedHarnessRun {
  container: HarnessContainerSpec;
  routeId: string | null;
  /** With `relay`: the Unix socket the proxy must serve the route on. */
  relaySocket?: string;
  /** Read usage after the container ended, and close the proxy route. */
  collect(logs: string): HarnessRunUsage;
  /** Throttled answers (429 / overloaded) on the run's proxy route so far, read while it runs. */
  throttled(): number;
  /** The finished run as an ATIF trajectory; null when its output holds no steps assay can read (absent: `command`). */
  trajectory?(logs: string, about: TrajectoryAbout): AtifTrajectory | null;
}

/** What a trajectory needs besides the output: the instruction, and the CLI's version as its image printed it. */
export interface TrajectoryAbout {
  instruction: string;
  version?: string;
}

export function routeIdFor(runId: string): string {
  return createHash('sha256').update(`assay-route:${runId}`).digest('hex').slice(0, 32);
}

/** Upstream, API and key of a system, validated; the key comes from the worker's environment only. */
export function modelRoute(system: SystemSpec, api: ModelApi, environment: Record<string, string | undefined>) {
  const s = system.settings;
  const upstream = typeof s.baseUrl === 'string' ? s.baseUrl : DEFAULT_UPSTREAM[api];
  if (!/^https?:\/\//.test(upstream)) throw new HarnessConfigError(messages.badBaseUrl(system.id, upstream));
  const keyEnv = typeof s.apiKeyEnv === 'string' ? s.apiKeyEnv : null;
  const key = keyEnv ? environment[keyEnv] : undefined;
  if (keyEnv && !key) throw new HarnessConfigError(messages.keyEnvMissing(system.id, keyEnv));
  return {
    upstream,
    api,
    key: key ?? '',
    ...(typeof s.apiKeyHeader === 'string' ? { keyHeader: s.apiKeyHeader } : {}),
  };
}

export function adapterContext(
  system: SystemSpec,
  baseUrl: string,
  limits: PrepareHarnessRunArgs['limits'],
): AdapterContext {
  if (!system.model) throw new HarnessConfigError(messages.modelMissing(system.id, system.harness));
  return {
    model: system.model,
    baseUrl,
    apiKey: DUMMY_API_KEY,
    settings: system.settings,
    maxSteps: limits.maxSteps,
    timeLimitSeconds: limits.agentSeconds,
  };
}

/** Seed the session folder with the adapter's config files. */
export function writeSessionFiles(adapter: HarnessAdapter, ctx: AdapterContext, sessionDir: string): void {
  for (const f of adapter.sessionFiles(ctx)) {
    const file = path.join(sessionDir, f.path);
    if (f.keepExisting && fs.existsSync(file)) continue;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, f.content);
  }
}

export function prepareHarnessRun(args: PrepareHarnessRunArgs): PreparedHarnessRun {
  const environment = args.environment ?? process.env;
  fs.mkdirSync(args.sessionDir, { recursive: true });
  if (args.system.harness === 'command') return planCommandHarness(args, environment);
  if (!isCliHarness(args.system.harness)) throw new Error(messages.unknownHarness(args.system.harness));
  const adapter = withTaskTools(ADAPTERS[args.system.harness], args.taskTools);
  const api = (typeof args.system.settings.api === 'string' ? args.system.settings.api : adapter.api) as ModelApi;
  const routeId = routeIdFor(args.runId);
  const relay = args.relay ? prepareProxyRelay(routeId, args.system.harness) : null;
  const loopbackUrl = args.proxy.open(routeId, modelRoute(args.system, api, environment));
  const sessionId = args.resume?.sessionId;
  const ctx = {
    ...adapterContext(args.system, relay?.baseUrl ?? loopbackUrl, args.limits),
    ...(sessionId ? { resumeSessionId: sessionId } : {}),
  };
  const before = recordedState(args.stateFile) ?? fileSizes(args.sessionDir);
  if (args.stateFile && !fs.existsSync(args.stateFile)) {
    fs.mkdirSync(path.dirname(args.stateFile), { recursive: true });
    fs.writeFileSync(args.stateFile, JSON.stringify({ before }));
  }
  writeSessionFiles(adapter, ctx, args.sessionDir);
  const cmd = harnessCommand(adapter, ctx, args.resume ? 'resume' : 'auto');
  return {
    routeId,
    ...(relay ? { relaySocket: relay.socket } : {}),
    container: {
      image: args.image,
      cmd: relay ? relay.wrap(cmd) : cmd,
      env: { HOME: SESSION_DIR, NO_COLOR: '1', ...adapter.env(ctx) },
      binds: [`${args.sessionDir}:${SESSION_DIR}`, ...(relay ? [relay.bind] : [])],
      readOnlyRoot: false,
      // Without the relay, the proxy is on the host's loopback.
      ...(relay ? {} : { network: 'host' as const }),
    },
    throttled: () => args.proxy.usage(routeId).throttled,
    trajectory: (logs, about) =>
      safe(() =>
        harnessTrajectory({
          harness: adapter.name,
          logs,
          sessionDir: args.sessionDir,
          before,
          model: ctx.model,
          ...about,
        }),
      ),
    collect(logs) {
      const input = { logs, sessionDir: args.sessionDir, before };
      const out = {
        usage: safe(() => adapter.parseUsage(input)),
        proxyUsage: args.proxy.usage(routeId),
        sessionId: safe(() => adapter.sessionId(input)),
      };
      args.proxy.close(routeId);
      relay?.remove();
      return out;
    },
  };
}

function recordedState(file: string | undefined): Record<string, number> | null {
  if (!file || !fs.existsSync(file)) return null;
  try {
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { before: Record<string, number> }).before;
  } catch {
    return null;
  }
}

function safe<T>(f: () => T | null): T | null {
  try {
    return f();
  } catch {
    return null;
  }
}
