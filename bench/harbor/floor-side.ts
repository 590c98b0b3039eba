// One round of the Docker floor (docker-floor.ts): the trial's agent containers with nothing of
// ours around them, measured as a process like the other sides.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { assayCreated, watchCreated } from './docker-events.js';
import type { SideResult, TrialTiming } from './harbor-side.js';
import { runMeasured } from './measure-process.js';

export interface FloorSetup {
  root: string;
  benchmarkDir: string;
  workDir: string;
}

export async function runFloorRound(
  setup: FloorSetup,
  round: number,
  opts: { trials: number; concurrency: number },
): Promise<SideResult> {
  const jobId = `hb-floor-r${round}-${Date.now().toString(36)}`;
  const out = path.join(setup.workDir, `${jobId}.json`);
  const watch = watchCreated();
  const measured = await runMeasured(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(setup.root, 'bench/harbor/docker-floor.ts'),
      ...['--benchmark', setup.benchmarkDir, '--job', jobId, '--out', out],
      ...['--trials', String(opts.trials), '--concurrency', String(opts.concurrency)],
    ],
    { cwd: setup.root, env: process.env, logFile: path.join(setup.workDir, `${jobId}.log`) },
  );
  const events = await watch.stop();
  const problems: string[] = [];
  if (measured.exitCode !== 0) problems.push(`docker floor exited ${measured.exitCode} (log: ${jobId}.log)`);
  const trials = existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as TrialTiming[]) : [];
  if (trials.length !== 2 * opts.trials) problems.push(`${trials.length} of ${2 * opts.trials} floor runs`);
  return { side: 'docker floor', measured, trials, created: assayCreated(events, jobId), extraCpuSeconds: 0, problems };
}
