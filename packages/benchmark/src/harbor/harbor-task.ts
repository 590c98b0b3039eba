// A Harbor 0.20 task folder as assay runs it (see Harbor's harbor/models/task/config.py and paths.py):
//   <task>/task.toml            the config (kept whole as parsed: `config`)
//   <task>/instruction.md       the agent's instruction, used byte for byte
//   <task>/environment/         the image's build context (Dockerfile), or [environment].docker_image;
//                               docker-compose.yaml adds sidecar services (harbor-compose.ts)
//   <task>/solution/solve.sh    the oracle's script (never mounted for another harness)
//   <task>/tests/test.sh        the verifier: copied in only after the agent has finished
import type { HarborCompose } from './harbor-compose.js';

/**
 * Harbor's network modes as assay maps them: `no-network` runs on `none`, `public` on the job's network,
 * `allowlist` on an internal network whose only way out is the worker's egress proxy (to `allowedHosts`).
 */
export type HarborNetworkMode = 'no-network' | 'public' | 'allowlist';

/** Harbor 0.25's MCPServerConfig (without `headers`): `url` for sse / streamable-http, `command` + `args` for stdio. */
export interface HarborMcpServer {
  name: string;
  transport: 'stdio' | 'sse' | 'streamable-http';
  url: string | null;
  command: string | null;
  args: string[];
}

export interface HarborTaskConfig {
  schemaVersion: string;
  /** [task].name (`org/name`), when the task has a [task] section. */
  name: string | null;
  agent: {
    timeoutSec: number | null;
    user: string | null;
    networkMode: HarborNetworkMode | null;
    /** allowed_hosts, normalized as Harbor does: what an `allowlist` phase may reach ([] otherwise). */
    allowedHosts: string[];
  };
  verifier: {
    timeoutSec: number;
    user: string | null;
    networkMode: HarborNetworkMode | null;
    allowedHosts: string[];
    env: Record<string, string>;
    /** Harbor 0.25's resolved mode: `separate` when environment_mode says so or a [verifier.environment] is set. */
    mode: HarborVerifierMode;
    /** [verifier.environment]: the separate verifier's own environment; null: tests/Dockerfile or the task's. */
    environment: HarborTaskConfig['environment'] | null;
    /** [[verifier.collect]]: commands run after the agent, before the artifacts are taken. */
    collect: HarborCollectHook[];
  };
  /** Task-level `artifacts`: files taken from the agent's run into the results (and a separate verifier). */
  artifacts: HarborArtifact[];
  environment: {
    buildTimeoutSec: number;
    dockerImage: string | null;
    cpus: number | null;
    memoryMb: number | null;
    storageMb: number | null;
    networkMode: HarborNetworkMode;
    allowedHosts: string[];
    env: Record<string, string>;
    workdir: string | null;
    /** [environment.healthcheck]: must pass in the agent's container before each agent starts; null: none. */
    healthcheck: HarborHealthcheck | null;
    /** skills_dir: a folder in the task's image whose sub-folders are Agent Skills, for a model CLI; null: none. */
    skillsDir: string | null;
    /** mcp_servers, merged by name as Harbor merges them: given to a model CLI as Harbor's agent for it does. */
    mcpServers: HarborMcpServer[];
  };
  solution: { env: Record<string, string> };
  /** `[[steps]]`, in order; null for a single-step task. */
  steps: HarborStepConfig[] | null;
  /** How the trial's reward comes from the steps' (`mean` when a multi-step task leaves it out); null without steps. */
  multiStepRewardStrategy: HarborMultiStepStrategy | null;
  /** Everything else the file holds ([metadata], source, unknown keys), as written. */
  config: Record<string, unknown>;
}

export type HarborMultiStepStrategy = 'mean' | 'final';

/** Harbor 0.25's HealthcheckConfig: `command` (bash) until it exits 0, Docker HEALTHCHECK's knobs in seconds. */
export interface HarborHealthcheck {
  command: string;
  /** Between attempts once the start period is over. */
  intervalSec: number;
  /** One attempt's limit: an attempt past it fails the check at once, as Harbor's exec raises. */
  timeoutSec: number;
  /** From the check's start: failures in it do not count toward `retries`. */
  startPeriodSec: number;
  /** Between attempts during the start period. */
  startIntervalSec: number;
  /** Consecutive failures after the start period that fail the check. */
  retries: number;
}

/** One `[[steps]]` entry: its files are in steps/<name>/ (instruction.md, tests/, solution/). */
export interface HarborStepConfig {
  name: string;
  /**
   * Null: the task's [agent] value. A step's network_mode (with its allowed_hosts) replaces the task's phase
   * policy for that step, as Harbor's _explicit_phase_policy; null: the task's.
   */
  agent: {
    timeoutSec: number | null;
    user: string | null;
    networkMode: HarborNetworkMode | null;
    allowedHosts: string[];
  };
  /** timeoutSec is Harbor's step default (600 s) when the step leaves it out; env goes over [verifier.env]. */
  verifier: {
    timeoutSec: number;
    user: string | null;
    networkMode: HarborNetworkMode | null;
    allowedHosts: string[];
    env: Record<string, string>;
    /** The step's own mode (explicit, or `separate` implied by its environment); null: the task's. */
    mode: HarborVerifierMode | null;
    /** The step's [steps.verifier.environment]; null: the task's (or its tests/ or environment). */
    environment: HarborTaskConfig['environment'] | null;
  };
  /** Harbor's gate: a number for `reward`, or a minimum per named reward; below it the remaining steps are skipped. */
  minReward: number | Record<string, number> | null;
  /** Run after the step's setup, before its agent (after the task's own healthcheck); null: none. */
  healthcheck: HarborHealthcheck | null;
  /** The step's own `artifacts`, taken after the task's; its [[verifier.collect]] run after the task's. */
  artifacts: HarborArtifact[];
  collect: HarborCollectHook[];
}

export type HarborVerifierMode = 'shared' | 'separate';

/** Harbor 0.25's ArtifactConfig (a string entry is its `source`). */
export interface HarborArtifact {
  source: string;
  /** Relative to the results' artifacts/ folder; null: the source's path under it. */
  destination: string | null;
  /** Patterns left out of a folder (tar --exclude). */
  exclude: string[];
  /** A compose service; null: main (the agent's container). */
  service: string | null;
}

/** Harbor 0.25's VerifierCollectConfig. */
export interface HarborCollectHook {
  command: string;
  service: string;
  timeoutSec: number;
  user: string | null;
}

/** A step's files as the runner uses them. */
export interface HarborStep extends HarborStepConfig {
  instructionFile: string;
  /** Copied to /tests in this order: tests/ (when present), then steps/<name>/tests/ over it. */
  testsDirs: string[];
  /** steps/<name>/solution when present (Harbor's oracle prefers it), else solution/. */
  solutionDir: string;
  /** steps/<name>/workdir/ when present: put into the agent's working directory before the step, setup.sh run. */
  workdirDir: string | null;
}

export interface HarborTask {
  dir: string;
  configFile: string;
  instructionFile: string;
  environmentDir: string;
  /** environment/Dockerfile when present (built), else null and `config.environment.dockerImage` is used. */
  dockerfile: string | null;
  solutionDir: string;
  testsDir: string;
  config: HarborTaskConfig;
  /** Multi-step tasks: each step's files; null for a single-step task. */
  steps: HarborStep[] | null;
  /** environment/docker-compose.yaml as read (main's additions and the sidecars), or null without one. */
  compose: HarborCompose | null;
}
