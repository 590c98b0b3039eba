// Thin e2e driver: one agent run of a real harness CLI in its container, through the
// same pieces a worker uses (prepareHarnessRun + the proxy + activities' runAgentContainer),
// against a scripted model server. Returns what a test needs to check.
import fs from 'node:fs';
import path from 'node:path';
import Docker from 'dockerode';
import type { SystemSpec } from '@assay/core';
import type { MockLlmServer } from '@assay/mock-llm';
import { demuxDockerLog } from '../../../../activities/src/run-agent-container.js';
import type { ModelProxy } from '../../src/model-proxy.js';
import { prepareHarnessRun, type HarnessRunUsage } from '../../src/prepare-harness-run.js';

export interface TrialDirs {
  root: string;
  workspace: string;
  instructionDir: string;
  sessionDir: string;
}

export function makeTrialDirs(root: string): TrialDirs {
  const dirs = {
    root,
    workspace: path.join(root, 'workspace'),
    instructionDir: path.join(root, 'assay'),
    sessionDir: path.join(root, 'session'),
  };
  for (const d of [
    path.join(dirs.workspace, 'inputs'),
    path.join(dirs.workspace, 'outputs'),
    dirs.instructionDir,
    dirs.sessionDir,
  ])
    fs.mkdirSync(d, { recursive: true });
  return dirs;
}

export interface CliRunResult extends HarnessRunUsage {
  exitCode: number | null;
  timedOut: boolean;
  durationSeconds: number;
  logs: string;
  /** Env of the container as Docker recorded it. */
  containerEnv: string[];
  /** Usage the mock server reported for the requests of this run. */
  serverUsage: { input: number; output: number; cachedInput: number };
  serverRequests: number;
}

export async function runCliSession(opts: {
  docker: Docker;
  mock: MockLlmServer;
  proxy: ModelProxy;
  image: string;
  system: SystemSpec;
  dirs: TrialDirs;
  runId: string;
  instruction: string;
  environment: Record<string, string>;
  agentSeconds?: number;
}): Promise<CliRunResult> {
  fs.writeFileSync(path.join(opts.dirs.instructionDir, 'instruction.md'), opts.instruction);
  opts.mock.clearRecords();
  const limits = { maxSteps: 20, agentSeconds: opts.agentSeconds ?? 300 };
  const prepared = prepareHarnessRun({
    system: opts.system,
    runId: opts.runId,
    sessionDir: opts.dirs.sessionDir,
    image: opts.image,
    proxy: opts.proxy,
    limits,
    environment: opts.environment,
  });
  const c = prepared.container;
  // Our own container (not activities' runAgentContainer): its `assay.managed` label would
  // let a concurrently starting worker reap it. Same settings as a worker's agent container.
  const started = Date.now();
  const container = await opts.docker.createContainer({
    Image: c.image,
    ...(c.cmd.length > 0 ? { Cmd: c.cmd, Entrypoint: [] } : {}),
    Env: Object.entries({
      ASSAY_INSTRUCTION_FILE: '/assay/instruction.md',
      ASSAY_TASK_ID: 'e2e',
      ASSAY_TRIAL: '1',
      ASSAY_MAX_STEPS: String(limits.maxSteps),
      ASSAY_TIME_LIMIT_SECONDS: String(limits.agentSeconds),
      ...c.env,
    }).map(([k, v]) => `${k}=${v}`),
    Labels: { 'assay.test': 'harness-e2e' },
    WorkingDir: '/workspace',
    HostConfig: {
      Binds: [`${opts.dirs.workspace}:/workspace`, `${opts.dirs.instructionDir}:/assay:ro`, ...c.binds],
      NetworkMode: c.network ?? 'none',
      NanoCpus: 2e9,
      Memory: 4 * 1024 ** 3,
      PidsLimit: 1024,
      SecurityOpt: ['no-new-privileges'],
      ReadonlyRootfs: c.readOnlyRoot,
      Init: true,
    },
  });
  try {
    await container.start();
    const timer = setTimeout(() => void container.kill().catch(() => undefined), limits.agentSeconds * 1000);
    const waited = (await container.wait()) as { StatusCode: number };
    clearTimeout(timer);
    const info = await container.inspect();
    const logs = demuxDockerLog((await container.logs({ stdout: true, stderr: true })) as unknown as Buffer);
    const usage = prepared.collect(logs);
    return {
      ...usage,
      exitCode: waited.StatusCode,
      timedOut: Date.now() - started >= limits.agentSeconds * 1000,
      durationSeconds: (Date.parse(info.State.FinishedAt) - Date.parse(info.State.StartedAt)) / 1000,
      logs,
      containerEnv: info.Config.Env ?? [],
      serverUsage: opts.mock.totalUsage(),
      serverRequests: opts.mock.modelCalls().length,
    };
  } finally {
    await container.remove({ force: true }).catch(() => undefined);
  }
}

/** Every file under dir, concatenated (to search a session folder for a leaked key). */
export function readTree(dir: string): string {
  let out = '';
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out += readTree(p);
    else if (e.isFile() && fs.statSync(p).size < 20 * 1024 ** 2) out += fs.readFileSync(p, 'latin1');
  }
  return out;
}
