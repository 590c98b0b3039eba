// A Harbor job folder (what `harbor run` writes) read into the records assay's analysis uses:
//
//   <job>/config.json                 JobConfig (its job_name tells a Harbor job from other folders)
//   <job>/result.json                 JobResult, without trial_results
//   <job>/<trial_name>/result.json    TrialResult, one folder per trial (harbor.models.trial.paths.TrialPaths)
//   <job>/<trial_name>/verifier/reward.json | reward.txt, agent/trajectory.json (ATIF), exception.txt, trial.log
//   <job>/<trial_name>/steps/<step>/verifier/…, agent/trajectory.json   a multi-step trial's steps
//
// Harbor names trials `<task>__<random>`; assay numbers them 1..k per system and task, in order of start.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { TrialRecord } from '@assay/core';
import { HARBOR_JOB_RESULT_FILE } from '@assay/results';
import type { z } from 'zod';
import { compareHarborJobStats, type HarborJobStatsComparison } from './compare-harbor-job-stats.js';
import {
  harborJobConfigSchema,
  harborJobResultSchema,
  harborJobStatsSchema,
  harborTrialResultSchema,
  type HarborExceptionInfo,
  type HarborTiming,
  type HarborTrialResult,
} from './harbor-job-schema.js';
import type { HarborRewardFile } from './harbor-step-records.js';
import { harborExceptionOf, harborSystemOf, harborTrialRecord } from './harbor-trial-record.js';
import type { JobResults } from './load-results.js';
import { messages } from './messages.js';
import { isInsideHarborDir } from './read-harbor-text.js';

/** File names of Harbor's TrialPaths and job folder (harbor 0.25.0). */
export const HARBOR_FILES = {
  config: 'config.json',
  result: HARBOR_JOB_RESULT_FILE,
  exception: 'exception.txt',
  rewardJson: path.join('verifier', 'reward.json'),
  rewardText: path.join('verifier', 'reward.txt'),
  trajectory: path.join('agent', 'trajectory.json'),
  log: 'trial.log',
  steps: 'steps',
} as const;

/** A step of a multi-step Harbor trial, beyond its record: its exception, timings and trajectory file. */
export interface HarborStepInfo {
  name: string;
  exception: HarborExceptionInfo | null;
  timings: Record<'agent_execution' | 'verifier', HarborTiming | null>;
  /** steps/<name>/agent/trajectory.json, when the step's agent wrote one (inside the trial folder). */
  trajectoryFile: string | null;
}

/** What a Harbor trial has beyond its record, for the viewer: where it is and what Harbor said about it. */
export interface HarborTrialInfo {
  /** `system/task/trial`, as the record names it. */
  key: string;
  trialName: string;
  /** The agent's version and the task's checksum, as Harbor recorded them (what produced the trial). */
  agentVersion: string;
  taskChecksum: string;
  /** The trial's folder. */
  dir: string;
  exception: HarborExceptionInfo | null;
  timings: Record<'environment_setup' | 'agent_setup' | 'agent_execution' | 'verifier', HarborTiming | null>;
  /** agent/trajectory.json, when the agent wrote one. */
  trajectoryFile: string | null;
  /** trial.log and exception.txt, when there (read bounded by the viewer: read-harbor-text.ts). */
  logFile: string | null;
  exceptionFile: string | null;
  /** A multi-step trial's steps in order; null for a single-step trial. */
  steps: HarborStepInfo[] | null;
}

export interface HarborJobResults extends JobResults {
  source: 'harbor-job';
  harborTrials: HarborTrialInfo[];
  /** The job's own stats beside the same numbers from the trial folders; null when they cannot be read. */
  harborStats: HarborJobStatsComparison | null;
}

/** A folder is a Harbor job when its config.json is a JobConfig (job_name) beside a result.json. */
export function isHarborJobDir(dir: string): boolean {
  const config = path.join(dir, HARBOR_FILES.config);
  if (!existsSync(config) || !existsSync(path.join(dir, HARBOR_FILES.result))) return false;
  try {
    const json = JSON.parse(readFileSync(config, 'utf8')) as unknown;
    return typeof json === 'object' && json !== null && 'job_name' in json;
  } catch {
    return false;
  }
}

export function readHarborJob(dir: string): HarborJobResults {
  const config = readValid(path.join(dir, HARBOR_FILES.config), harborJobConfigSchema);
  const job = readValid(path.join(dir, HARBOR_FILES.result), harborJobResultSchema);
  const dirs = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => path.join(dir, d.name))
    .sort();
  const trialDirs = dirs.filter((d) => existsSync(path.join(d, HARBOR_FILES.result)));
  // Harbor writes a trial's result.json when the trial ends: a trial folder without one is still running (or was
  // killed), listed rather than read, as Harbor's own resume skips it.
  const problems = dirs
    .filter((d) => !trialDirs.includes(d) && existsSync(path.join(d, HARBOR_FILES.config)))
    .map((d) => ({ file: path.join(d, HARBOR_FILES.result), message: messages.harborTrialUnfinished() }));
  const results = trialDirs.map((d) => ({
    dir: d,
    result: readValid(path.join(d, HARBOR_FILES.result), harborTrialResultSchema),
  }));
  const numbered = numberTrials(results);
  const trials: TrialRecord[] = [];
  const harborTrials: HarborTrialInfo[] = [];
  for (const { dir: trialDir, result, trial } of numbered) {
    const stepRewardFiles = (result.step_results ?? []).map((st) => {
      const stepDir = stepDirOf(trialDir, st.step_name);
      return stepDir ? rewardFileOf(stepDir) : null;
    });
    const record = harborTrialRecord({
      jobId: config.job_name,
      result,
      trial,
      rewardFile: rewardFileOf(trialDir),
      stepRewardFiles,
    });
    trials.push(record);
    harborTrials.push(trialInfo(record, trialDir, result));
  }
  // Harbor's own stats are shown beside the trials, never scored from: unreadable ones are a note, not an error.
  const stats = harborJobStatsSchema.safeParse(job.stats);
  if (!stats.success)
    problems.push({
      file: path.join(dir, HARBOR_FILES.result),
      message: "its stats are not Harbor 0.25.0's JobStats: Harbor's own metrics are not shown",
    });
  return {
    source: 'harbor-job',
    dir,
    jobId: config.job_name,
    job: { id: config.job_name, harbor: { id: job.id, n_total_trials: job.n_total_trials } },
    trials,
    projects: [],
    problems,
    versions: [],
    harborTrials,
    harborStats: stats.success
      ? compareHarborJobStats(
          stats.data,
          results.map((r) => r.result),
        )
      : null,
  };
}

/** Trials numbered 1..k within each system and task, by start time (then name), so reruns keep their order. */
function numberTrials<T extends { result: HarborTrialResult }>(list: T[]): (T & { trial: number })[] {
  const sorted = [...list].sort(
    (a, b) =>
      (a.result.started_at ?? '').localeCompare(b.result.started_at ?? '') ||
      a.result.trial_name.localeCompare(b.result.trial_name),
  );
  const counts = new Map<string, number>();
  return sorted.map((t) => {
    const key = `${harborSystemOf(t.result).id}/${t.result.task_name}`;
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    return { ...t, trial: n };
  });
}

/** A step's folder; a step name that would leave the trial folder (Harbor rejects those) is given none. */
function stepDirOf(trialDir: string, step: string): string | null {
  const d = path.join(trialDir, HARBOR_FILES.steps, step);
  return path.dirname(path.dirname(d)) === trialDir ? d : null;
}

/** `folder/rel` when it is there and inside `root` (no symlink out of the trial folder). */
function fileAt(root: string, folder: string | null, rel: string): string | null {
  if (folder === null) return null;
  const file = path.join(folder, rel);
  return existsSync(file) && isInsideHarborDir(root, file) ? file : null;
}

function rewardFileOf(trialDir: string): HarborRewardFile {
  // Harbor reads reward.json first when both are there (its Verifier).
  if (existsSync(path.join(trialDir, HARBOR_FILES.rewardJson))) return 'reward.json';
  return existsSync(path.join(trialDir, HARBOR_FILES.rewardText)) ? 'reward.txt' : null;
}

function trialInfo(record: TrialRecord, dir: string, r: HarborTrialResult): HarborTrialInfo {
  const steps = (r.step_results ?? []).map((st) => ({
    name: st.step_name,
    exception: st.exception_info ?? null,
    timings: { agent_execution: st.agent_execution ?? null, verifier: st.verifier ?? null },
    trajectoryFile: fileAt(dir, stepDirOf(dir, st.step_name), HARBOR_FILES.trajectory),
  }));
  return {
    key: `${record.system.id}/${record.task.id}/${record.trial}`,
    trialName: r.trial_name,
    agentVersion: r.agent_info.version,
    taskChecksum: r.task_checksum,
    dir,
    exception: harborExceptionOf(r),
    timings: {
      environment_setup: r.environment_setup ?? null,
      agent_setup: r.agent_setup ?? null,
      agent_execution: r.agent_execution ?? null,
      verifier: r.verifier ?? null,
    },
    trajectoryFile: fileAt(dir, dir, HARBOR_FILES.trajectory),
    logFile: fileAt(dir, dir, HARBOR_FILES.log),
    exceptionFile: fileAt(dir, dir, HARBOR_FILES.exception),
    steps: steps.length > 0 ? steps : null,
  };
}

/** The file parsed against its schema, or an error naming the file, the field and what is wrong with it. */
function readValid<S extends z.ZodType>(file: string, schema: S): z.infer<S> {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(messages.unreadableJson(file, (err as Error).message));
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(top level)'}: ${i.message}`)
    .join('; ');
  throw new Error(messages.invalidHarborFile(file, details));
}
