// Run one agent session (a single task, or one subtask of a project) in its
// harness container, exactly once: the result is written next to the trial and
// returned as is on any retry, and a retry before that re-attaches to the container.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Context } from '@temporalio/activity';
import type Docker from 'dockerode';
import type { JobSpec, SystemSpec, Usage } from '@assay/core';
import { planContainer } from './harness/plan-container.js';
import { parseAgentUsage } from './parse-agent-usage.js';
import { removeContainer, runAgentContainer } from './run-agent-container.js';
import { writeFileAtomic, writeJsonAtomic } from './write-file-atomic.js';

export interface AgentRun {
  exitCode: number | null;
  timedOut: boolean;
  reason: string | null;
  startedAt: string;
  endedAt: string;
  durationSeconds: number;
  containerAttempts: number;
  usage: Usage | null;
}

export interface HarnessRunArgs {
  workflowId: string;
  /** Folder receiving agent-result.json and transcript.log. */
  resultDir: string;
  system: SystemSpec;
  /** The task's or project's evaluator folder (only scripted test instruments mount parts of it). */
  evaluatorDir: string;
  workspace: string;
  instructionDir: string;
  env: Record<string, string>;
  labels: Record<string, string>;
  limits: JobSpec['limits'];
  resources: JobSpec['resources'];
}

export interface HarnessDeps {
  docker: Docker;
  images: { scriptedAgent: string };
}

export async function runHarness(deps: HarnessDeps, args: HarnessRunArgs): Promise<AgentRun> {
  const resultFile = path.join(args.resultDir, 'agent-result.json');
  if (existsSync(resultFile)) return JSON.parse(readFileSync(resultFile, 'utf8')) as AgentRun;
  const plan = planContainer({ system: args.system, evaluatorDir: args.evaluatorDir, images: deps.images });
  const ctx = Context.current();
  const result = await runAgentContainer(
    deps.docker,
    {
      workflowId: args.workflowId,
      labels: args.labels,
      plan,
      workspace: args.workspace,
      instructionDir: args.instructionDir,
      env: {
        ASSAY_INSTRUCTION_FILE: '/assay/instruction.md',
        ASSAY_MAX_STEPS: String(args.limits.maxSteps),
        ASSAY_TIME_LIMIT_SECONDS: String(args.limits.agentSeconds),
        ...args.env,
      },
      limits: args.limits,
      resources: args.resources,
    },
    { heartbeat: (d) => ctx.heartbeat(d), sleep: (ms) => ctx.sleep(ms), cancelled: () => ctx.cancellationSignal.aborted },
  );
  const run: AgentRun = {
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    reason: result.timedOut
      ? `agent exceeded its ${args.limits.agentSeconds} s limit`
      : result.exitCode === 0 ? null : `agent exited with code ${result.exitCode}`,
    startedAt: result.startedAt,
    endedAt: result.endedAt,
    durationSeconds: result.durationSeconds,
    containerAttempts: ctx.info.attempt,
    usage: parseAgentUsage(result.logs),
  };
  mkdirSync(args.resultDir, { recursive: true });
  writeFileAtomic(path.join(args.resultDir, 'transcript.log'), result.logs);
  writeJsonAtomic(resultFile, run);
  await removeContainer(deps.docker, args.workflowId);
  return run;
}
