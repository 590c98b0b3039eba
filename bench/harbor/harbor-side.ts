// One Harbor 0.20 round: oracle + nop agents x N trials of the trivial task at concurrency C,
// through `harbor run -c job.yaml`, measured as a process tree; per-trial phases from each
// trial's result.json.
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { harborCreated, watchCreated, type Created } from './docker-events.js';
import { runMeasured, type Measured } from './measure-process.js';
import { TASK_ID } from './generate-tasks.js';

export interface TrialTiming {
  agent: string;
  startMs: number;
  endMs: number;
  seconds: number;
  reward: number | null;
  /** The agent's own run (Harbor: agent execution; assay: the container's start to exit). */
  agentSeconds: number;
  /** assay: the trial's workflow id. */
  workflowId?: string;
  /** Phase seconds (Harbor's own phase names). */
  phases: Record<string, number>;
}

export interface SideResult {
  side: string;
  measured: Measured;
  trials: TrialTiming[];
  created: Created;
  /** Other processes' CPU charged to the side (assay: its Temporal server). */
  extraCpuSeconds: number;
  problems: string[];
}

export interface HarborSetup {
  root: string;
  venv: string;
  dockerConfig: string;
  datasetDir: string;
  workDir: string;
}

const ms = (iso: string | undefined): number => (iso ? Date.parse(iso.endsWith('Z') ? iso : `${iso}Z`) : NaN);
const span = (p: { started_at?: string; finished_at?: string } | null | undefined): number =>
  p ? (ms(p.finished_at) - ms(p.started_at)) / 1000 : NaN;

export async function runHarborRound(
  setup: HarborSetup,
  round: number,
  opts: { trials: number; concurrency: number },
): Promise<SideResult> {
  const jobName = `harbor-r${round}`;
  const jobsDir = path.join(setup.workDir, 'harbor-jobs');
  const config = path.join(setup.workDir, `${jobName}.yaml`);
  writeFileSync(
    config,
    [
      `job_name: ${jobName}`,
      `jobs_dir: ${jobsDir}`,
      `n_attempts: ${opts.trials}`,
      `n_concurrent_trials: ${opts.concurrency}`,
      'quiet: true',
      'agents:',
      '  - name: oracle',
      '  - name: nop',
      'datasets:',
      `  - path: ${setup.datasetDir}`,
      '',
    ].join('\n'),
  );
  const env = {
    ...process.env,
    HARBOR_TELEMETRY: '0',
    LITELLM_LOCAL_MODEL_COST_MAP: 'True',
    DOCKER_CONFIG: setup.dockerConfig,
    PATH: `${path.join(setup.venv, 'bin')}:${process.env.PATH ?? ''}`,
  };
  const watch = watchCreated();
  const measured = await runMeasured(path.join(setup.venv, 'bin', 'harbor'), ['run', '-c', config, '-y'], {
    cwd: setup.workDir,
    env,
    logFile: path.join(setup.workDir, `${jobName}.log`),
  });
  const events = await watch.stop();
  const trials = readHarborTrials(path.join(jobsDir, jobName));
  const problems: string[] = [];
  if (measured.exitCode !== 0) problems.push(`harbor exited ${measured.exitCode}`);
  if (trials.length !== 2 * opts.trials) problems.push(`${trials.length} of ${2 * opts.trials} Harbor trials`);
  for (const t of trials) {
    const want = t.agent === 'oracle' ? 1 : 0;
    if (t.reward !== want) problems.push(`Harbor ${t.agent} trial scored ${t.reward}`);
  }
  return {
    side: 'harbor',
    measured,
    trials,
    created: harborCreated(events, TASK_ID),
    extraCpuSeconds: 0,
    problems,
  };
}

interface HarborTrialResult {
  started_at: string;
  finished_at: string;
  agent_info?: { name?: string };
  environment_setup?: { started_at: string; finished_at: string };
  agent_setup?: { started_at: string; finished_at: string };
  agent_execution?: { started_at: string; finished_at: string };
  verifier?: { started_at: string; finished_at: string };
  verifier_result?: { rewards?: { reward?: number } } | null;
}

function readHarborTrials(jobDir: string): TrialTiming[] {
  if (!existsSync(jobDir)) return [];
  const out: TrialTiming[] = [];
  for (const name of readdirSync(jobDir)) {
    const file = path.join(jobDir, name, 'result.json');
    if (!existsSync(file)) continue;
    const r = JSON.parse(readFileSync(file, 'utf8')) as HarborTrialResult;
    const startMs = ms(r.started_at);
    const endMs = ms(r.finished_at);
    out.push({
      agent: r.agent_info?.name ?? '?',
      startMs,
      endMs,
      seconds: (endMs - startMs) / 1000,
      reward: r.verifier_result?.rewards?.reward ?? null,
      agentSeconds: span(r.agent_execution),
      phases: {
        'environment setup': span(r.environment_setup),
        'agent setup': span(r.agent_setup),
        agent: span(r.agent_execution),
        verifier: span(r.verifier),
        'teardown (compose down)': (endMs - ms(r.verifier?.finished_at)) / 1000,
      },
    });
  }
  return out;
}
