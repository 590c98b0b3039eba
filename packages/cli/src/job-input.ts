import path from 'node:path';
import {
  InvalidInputError,
  formatIssue,
  keyEnvIssues,
  loadJob,
  machineIssues,
  readJobOutline,
  selectProjects,
  selectTasks,
  type Issue,
  type JobOutline,
  type LoadedJob,
} from '@assay/benchmark';
import { RESULTS_LAYOUT_VERSION, jobKey, openResultsStore } from '@assay/results';
import { MODEL_PRICES, RETRY_KINDS, type RetryKind } from '@assay/core';
import type { JobInput } from '@assay/workflows/definitions';
import { CliError } from './cli-error.js';
import { messages } from './messages.js';

const invalid = (issues: Issue[]) => new CliError(messages.invalidInput(issues.length), 1, issues.map(formatIssue));

/**
 * Load a job file or fail with every problem listed. What depends on the machine (its CPUs, a
 * writable results folder) is left to assertRunnable: status, report and judge read jobs run elsewhere.
 */
export function loadJobOrFail(file: string, root: string): LoadedJob {
  try {
    return loadJob(file, { repoRoot: root, machine: false });
  } catch (err) {
    if (err instanceof InvalidInputError) throw invalid(err.issues);
    throw err;
  }
}

/** What status reads of a job (no task or project file of its benchmark), or fail with every problem listed. */
export function loadJobOutlineOrFail(file: string, root: string): JobOutline {
  try {
    return readJobOutline(file, { repoRoot: root, machine: false });
  } catch (err) {
    if (err instanceof InvalidInputError) throw invalid(err.issues);
    throw err;
  }
}

/**
 * Before `run` submits: every harness runnable by this build, this machine able to run the job, and
 * every key's variable set where the worker runs. With an external worker (`worker: false`) the keys
 * can only be checked on this machine: a missing one is a warning that says so, not a refusal.
 * The activities are imported here only: status, report and judge load jobs without them.
 */
export async function assertRunnable(
  job: LoadedJob,
  opts: { worker: boolean; warn?: (line: string) => void } = { worker: true },
): Promise<void> {
  const { RUNNABLE_HARNESSES } = await import('@assay/activities');
  for (const s of job.spec.systems) {
    if (!(RUNNABLE_HARNESSES as readonly string[]).includes(s.harness)) {
      throw new CliError(messages.harnessNotRunnable(s.id, s.harness, RUNNABLE_HARNESSES));
    }
  }
  const label = path.relative(process.cwd(), job.file) || job.file;
  const keys = keyEnvIssues(
    label,
    job.spec as unknown as Record<string, unknown>,
    process.env,
    opts.worker ? 'here' : 'elsewhere',
  );
  const store = await resultsStoreIssues(job, label);
  const issues = [...machineIssues(job), ...store, ...(opts.worker ? keys : [])];
  if (issues.length > 0) throw invalid(issues);
  const warn = opts.warn ?? ((line: string) => console.error(line));
  for (const k of opts.worker ? [] : keys) warn(messages.warning(formatIssue(k)));
}

/** An s3:// results location that this machine cannot reach or write, as the job file's `results` issue. */
export async function resultsStoreIssues(job: LoadedJob, label: string): Promise<Issue[]> {
  const { resultsStoreProblem } = await import('@assay/results');
  const reason = await resultsStoreProblem(job.resultsDir);
  return reason === null ? [] : [{ file: label, field: 'results', reason }];
}

/** `--retry infra-failed,agent-failed`: infra failures always run again; agent failures on request. */
export function parseRetry(value: string | undefined): RetryKind[] {
  const kinds = (value ?? 'infra-failed').split(',').map((k) => k.trim());
  for (const k of kinds)
    if (!(RETRY_KINDS as readonly string[]).includes(k)) throw new CliError(messages.badRetry(k, RETRY_KINDS));
  return [...new Set(['infra-failed', ...kinds])] as RetryKind[];
}

/** The job's price table: the repository's, with the job file's `prices:` over it. */
export const jobPricesOf = (job: { spec: Pick<LoadedJob['spec'], 'prices'> }) => ({
  ...MODEL_PRICES,
  ...job.spec.prices,
});

export function jobInputOf(job: LoadedJob, heartbeatSeconds: number, retry: RetryKind[] = ['infra-failed']): JobInput {
  return {
    retry,
    ...(job.spec.budget ? { budget: job.spec.budget } : {}),
    ...(job.spec.backPressure ? { backPressure: job.spec.backPressure } : {}),
    prices: jobPricesOf(job),
    jobId: job.spec.id,
    jobFile: job.file,
    ...(process.env.ASSAY_JUDGE_BATCH_POLL_SECONDS
      ? { batchPollSeconds: Number(process.env.ASSAY_JUDGE_BATCH_POLL_SECONDS) }
      : {}),
    resultsDir: job.resultsDir,
    benchmark: { id: job.benchmark.index.id, version: job.benchmark.index.version, root: job.benchmark.root },
    taskIds: selectTasks(job).map((t) => t.spec.id),
    projectIds: selectProjects(job).map((p) => p.spec.id),
    systems: job.spec.systems,
    trials: job.spec.trials,
    concurrency: job.spec.concurrency,
    limits: job.spec.limits,
    resources: job.spec.resources,
    judge: job.spec.judge,
    heartbeatSeconds,
    ...hostWaitOf(process.env.ASSAY_HOST_WAIT_SECONDS),
    batchSize: Number(process.env.ASSAY_JOB_BATCH_SIZE ?? 500),
  };
}

/** ASSAY_HOST_WAIT_SECONDS: how long a unit's activity waits for its host before the unit moves (default 600). */
function hostWaitOf(value: string | undefined): { hostWaitSeconds?: number } {
  if (value === undefined || value === '') return {};
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 1 || seconds > 86_400)
    throw new CliError(`ASSAY_HOST_WAIT_SECONDS: "${value}" is not a number of seconds from 1 to 86400`);
  return { hostWaitSeconds: seconds };
}

/** `<results>/job.json`: the resolved job (no secrets: keys are only ever named by env var). */
export async function writeJobManifest(job: LoadedJob): Promise<void> {
  await openResultsStore(job.resultsDir).putJson(jobKey(), {
    layout: RESULTS_LAYOUT_VERSION,
    jobFile: job.file,
    ...(process.env.ASSAY_JUDGE_BATCH_POLL_SECONDS
      ? { batchPollSeconds: Number(process.env.ASSAY_JUDGE_BATCH_POLL_SECONDS) }
      : {}),
    benchmark: { id: job.benchmark.index.id, version: job.benchmark.index.version, root: job.benchmark.root },
    spec: job.spec,
    writtenAt: new Date().toISOString(),
  });
}
