// A Harbor 0.20 task folder as assay runs it (see Harbor's harbor/models/task/config.py and paths.py):
//   <task>/task.toml            the config (kept whole as parsed: `config`)
//   <task>/instruction.md       the agent's instruction, used byte for byte
//   <task>/environment/         the image's build context (Dockerfile), or [environment].docker_image;
//                               docker-compose.yaml adds sidecar services (harbor-compose.ts)
//   <task>/solution/solve.sh    the oracle's script (never mounted for another harness)
//   <task>/tests/test.sh        the verifier: copied in only after the agent has finished
import type { HarborCompose } from './harbor-compose.js';

/** Harbor's network modes as assay maps them: `no-network` runs on `none`, `public` on the job's network. */
export type HarborNetworkMode = 'no-network' | 'public';

export interface HarborTaskConfig {
  schemaVersion: string;
  /** [task].name (`org/name`), when the task has a [task] section. */
  name: string | null;
  agent: { timeoutSec: number | null; user: string | null; networkMode: HarborNetworkMode | null };
  verifier: {
    timeoutSec: number;
    user: string | null;
    networkMode: HarborNetworkMode | null;
    env: Record<string, string>;
  };
  environment: {
    buildTimeoutSec: number;
    dockerImage: string | null;
    cpus: number | null;
    memoryMb: number | null;
    storageMb: number | null;
    networkMode: HarborNetworkMode;
    env: Record<string, string>;
    workdir: string | null;
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

/** One `[[steps]]` entry: its files are in steps/<name>/ (instruction.md, tests/, solution/). */
export interface HarborStepConfig {
  name: string;
  /** Null: the task's [agent] value. */
  agent: { timeoutSec: number | null; user: string | null };
  /** timeoutSec is Harbor's step default (600 s) when the step leaves it out; env goes over [verifier.env]. */
  verifier: { timeoutSec: number; user: string | null; env: Record<string, string> };
  /** Harbor's gate: a number for `reward`, or a minimum per named reward; below it the remaining steps are skipped. */
  minReward: number | Record<string, number> | null;
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
