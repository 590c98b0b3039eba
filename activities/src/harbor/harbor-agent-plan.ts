// What the agent container of a Harbor trial runs: `oracle` (solution/solve.sh, copied in for it alone),
// `nop`, or a model CLI planned as run-harness plans it for assay's own tasks (the adapter's command, its
// session folder at /session, a route on the worker's key-injecting proxy, usage read afterwards), on the
// CLI's image layered on the task's image, in the task's working directory with instruction.md at /assay.
// Unlike on assay's own tasks, the CLI keeps the task's network (none, the job's, or a compose task's trial
// network) and reaches its proxy route through the relay (@assay/harnesses proxy-relay.ts), not the host's.
// Each step of a multi-step task has its own session folder; a step that resumes (Harbor's resume_trajectory)
// starts with a copy of the previous step's and runs the CLI's resume argv (harbor-session.ts).
import { chmodSync, cpSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type Docker from 'dockerode';
import type { HarborTask } from '@assay/benchmark';
import { isModelHarness, type TrialInput } from '@assay/core';
import { INSTALLS } from '@assay/harnesses';
import { HarnessNotAvailable } from '../harness/harness-context.js';
import { planHarnessRun, type HarnessUsageReport, type PlannedHarnessRun } from '../harness/plan-container.js';
import { containerExists } from './harbor-container.js';
import { ensureHarborHarnessImage } from './harbor-harness-image.js';
import { harborSessionPaths, startHarborSession, type HarborSessionPaths } from './harbor-session.js';
import type { HarborSettings } from './harbor-settings.js';

export interface HarborAgentPlan {
  image: string;
  cmd: string[];
  /** Set on the container, so the verifier (on the agent's snapshot) sees it too: the task's own env only. */
  env: Record<string, string>;
  binds: string[];
  user: string | null;
  workdir: string | null;
  network: HarborSettings['agentNetwork'];
  /** Runs before a new container is created (never on re-attach): resets what it writes into. */
  fresh: () => void;
  /** Model CLIs: usage as the CLI reported it and as the proxy counted it. */
  collect?: (logs: string) => HarnessUsageReport;
  /** Model CLIs: throttled answers (429 / overloaded) the proxy has seen for this run so far (back-pressure). */
  throttled?: () => number;
  /** Model CLIs: the version the CLI printed when its image was built (absent: none recorded). */
  harnessVersion?: string;
  /** Model CLIs: the finished run as an ATIF trajectory (null: no steps assay can read). */
  trajectory?: PlannedHarnessRun['trajectory'];
}

export interface HarborPlanArgs {
  trial: TrialInput;
  task: { id: string; harbor: HarborTask };
  workflowId: string;
  /** The trial's work volume: the agent's /logs/agent, the solution's copy, a model CLI's session. */
  workDir: string;
  /** Holds instruction.md, mounted read-only at /assay for model CLIs. */
  instructionDir: string;
  /** The task's environment image. */
  taskImage: string;
  /** [environment].env (and [solution.env] for the oracle), resolved. */
  env: Record<string, string>;
  settings: HarborSettings;
  /** A step of a multi-step task: its name (its own session folder). */
  step?: { name?: string };
  /** A step that continues the previous step's CLI session (resume_trajectory): that step and its session id. */
  resume?: { fromStep: string; sessionId: string | null };
}

/** The model CLIs: the npm CLIs' chain layers on any glibc image; a Python CLI comes bundled onto it. */
const isHarborModelHarness = (harness: string): harness is keyof typeof INSTALLS =>
  isModelHarness(harness) && harness in INSTALLS;

export async function planHarborAgent(docker: Docker, args: HarborPlanArgs): Promise<HarborAgentPlan> {
  const harness = args.trial.system.harness;
  if (harness === 'oracle' || harness === 'nop') return planScripted(args, harness);
  if (isHarborModelHarness(harness)) return planModelCli(docker, args, harness);
  throw new HarnessNotAvailable(
    `harness "${harness}" is not supported on Harbor tasks (oracle, nop and the model CLIs are)`,
  );
}

function planScripted(args: HarborPlanArgs, harness: 'oracle' | 'nop'): HarborAgentPlan {
  const { harbor } = args.task;
  const solution = path.join(args.workDir, 'harbor', 'solution');
  const agentLogs = path.join(args.workDir, 'harbor', 'agent-logs');
  return {
    image: args.taskImage,
    cmd: harness === 'oracle' ? ['bash', '-c', 'bash /solution/solve.sh'] : ['true'],
    env: args.env,
    binds: [`${agentLogs}:/logs/agent`, ...(harness === 'oracle' ? [`${solution}:/solution`] : [])],
    user: harbor.config.agent.user,
    workdir: harbor.config.environment.workdir,
    network: args.settings.agentNetwork,
    fresh: () => {
      // A copy, so the task's own files are never written to (solve.sh may write beside itself).
      rmSync(path.join(args.workDir, 'harbor'), { recursive: true, force: true });
      mkdirSync(agentLogs, { recursive: true });
      chmodSync(agentLogs, 0o777); // the agent's user need not be root (the task image's USER, [agent].user)
      if (harness === 'oracle') cpSync(harbor.solutionDir, solution, { recursive: true });
    },
  };
}

async function planModelCli(
  docker: Docker,
  args: HarborPlanArgs,
  harness: keyof typeof INSTALLS,
): Promise<HarborAgentPlan> {
  const { harbor } = args.task;
  const { sessionDir, stateFile } = await sessionOf(docker, args);
  const image = await ensureHarborHarnessImage(docker, {
    taskImage: args.taskImage,
    harness,
    workdir: harbor.config.environment.workdir,
    configFile: harbor.configFile,
  });
  const planned = await planHarnessRun({
    system: args.trial.system,
    evaluatorDir: '/nonexistent', // only scripted test instruments read it
    images: { scriptedAgent: '' },
    runId: args.workflowId,
    sessionDir,
    stateFile,
    limits: { maxSteps: args.trial.limits.maxSteps, agentSeconds: args.settings.agentSeconds },
    image: image.tag,
    relay: true,
    taskTools: { skillsDir: harbor.config.environment.skillsDir, mcpServers: harbor.config.environment.mcpServers },
    ...(args.resume ? { resume: { sessionId: args.resume.sessionId } } : {}),
  });
  // A non-root agent user must be able to write its HOME (/session) and the config seeded into it.
  openToAnyUser(sessionDir);
  const agentLogs = path.join(args.workDir, 'harbor', 'agent-logs');
  // The CLI's own variables (HOME=/session, its config dir, the dummy key) go through `env` in the command,
  // not the container's Env: a snapshot keeps its container's Env, and the verifier must not inherit them.
  const cliEnv = {
    ASSAY_INSTRUCTION_FILE: '/assay/instruction.md',
    ASSAY_MAX_STEPS: String(args.trial.limits.maxSteps),
    ASSAY_TIME_LIMIT_SECONDS: String(args.settings.agentSeconds),
    ...planned.plan.env,
  };
  return {
    image: image.tag,
    cmd: ['env', ...Object.entries(cliEnv).map(([k, v]) => `${k}=${v}`), ...planned.plan.cmd],
    env: args.env,
    binds: [`${agentLogs}:/logs/agent`, `${args.instructionDir}:/assay:ro`, ...planned.plan.binds],
    user: harbor.config.agent.user ?? image.imageUser,
    workdir: image.workdir,
    // The task's own network (a compose task's: the trial's): the proxy is reached through the relay's socket.
    network: args.settings.agentNetwork,
    fresh: () => {
      rmSync(path.join(args.workDir, 'harbor'), { recursive: true, force: true });
      mkdirSync(agentLogs, { recursive: true });
      chmodSync(agentLogs, 0o777);
    },
    ...(planned.collect ? { collect: planned.collect } : {}),
    ...(planned.throttled ? { throttled: planned.throttled } : {}),
    ...(planned.trajectory ? { trajectory: planned.trajectory } : {}),
    ...(image.harnessVersion ? { harnessVersion: image.harnessVersion } : {}),
  };
}

/** The CLI's session folder; a new container starts a new session, or the previous step's continued. */
async function sessionOf(docker: Docker, args: HarborPlanArgs): Promise<HarborSessionPaths> {
  const paths = harborSessionPaths(args.workDir, args.step?.name);
  // Never a cancelled run's: nothing of it may be continued or counted. A re-attached container keeps its own.
  if (!(await containerExists(docker, args.workflowId)))
    startHarborSession(paths, args.resume ? harborSessionPaths(args.workDir, args.resume.fromStep) : null);
  return paths;
}

/** The folder and everything in it writable by any user (the agent's need not be the worker's); per trial. */
function openToAnyUser(dir: string): void {
  const chmod = (p: string, mode: number) => {
    try {
      chmodSync(p, mode);
    } catch {
      // A file the agent made itself (a re-attached run): it is its own already.
    }
  };
  chmod(dir, 0o777);
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) chmod(p, 0o777);
    else if (entry.isFile()) chmod(p, statSync(p).mode | 0o666);
  }
}
