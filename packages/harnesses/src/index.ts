// @assay/harnesses: adapters for the agent CLIs the papers ran (image recipe, command
// line, session continuation, model/base-URL/key env, telemetry off, usage parser),
// the `command` harness for users' own agents, and the worker's key-injecting proxy.
export { ADAPTERS, isCliHarness, type CliHarness } from './adapters/index.js';
export { planCommandHarness, renderCommandTemplate } from './adapters/command.js';
export { codexConfig, parseCodexEvents } from './adapters/codex.js';
export {
  ensureHarnessImage,
  ensureNodeRuntimeImage,
  ensurePythonBundle,
  HARNESS_IMAGES_DIR,
  HARNESS_VERSION_FILE,
  harnessVersionOf,
  packNpm,
  registryCaBundle,
} from './ensure-harness-image.js';
export type { EnsureHarnessImageOptions, HarnessImage } from './ensure-harness-image.js';
export { ATIF_SCHEMA_VERSION } from './atif-trajectory.js';
export type { AtifStep, AtifTrajectory } from './atif-trajectory.js';
export { harnessTrajectory, type HarnessTrajectoryInput } from './harness-trajectory.js';
export { SESSION_DIR } from './harness-adapter.js';
export { HarnessConfigError } from './harness-config-error.js';
export type {
  AdapterContext,
  HarnessAdapter,
  HarnessInstall,
  ModelApi,
  SessionFile,
  UsageInput,
} from './harness-adapter.js';
export { INSTALLS, NODE_RUNTIME, NPM_RUNTIME, type InstalledHarness } from './installs.js';
export { messages } from './messages.js';
export { parseUsageLine } from './parse-usage-line.js';
export { isThrottleResponse, sharedModelProxy, startModelProxy } from './model-proxy.js';
export type { ModelProxy, ProxyRoute, ProxyUsage, ResponseIds, StartModelProxyOptions } from './model-proxy.js';
export {
  DEFAULT_UPSTREAM,
  DUMMY_API_KEY,
  adapterContext,
  modelRoute,
  prepareHarnessRun,
  routeIdFor,
  writeSessionFiles,
} from './prepare-harness-run.js';
export type {
  HarnessContainerSpec,
  HarnessRunUsage,
  PrepareHarnessRunArgs,
  PreparedHarnessRun,
  TrajectoryAbout,
} from './prepare-harness-run.js';
export { RELAY_MOUNT, RELAY_PORT, prepareProxyRelay, relayDirFor } from './proxy-relay.js';
export type { ProxyRelay } from './proxy-relay.js';
export { extractModels, extractResponseIds, extractUsage, type TokenCounts } from './response-usage.js';
export { harnessCommand, shellWord, type SessionMode } from './shell-command.js';
export {
  KIMI_MCP_FILE,
  claudeServers,
  codexServers,
  geminiServers,
  hermesServers,
  skillsCommand,
  supportsTaskTools,
  urlServers,
  withTaskTools,
  type McpServer,
  type TaskTools,
} from './with-task-tools.js';
