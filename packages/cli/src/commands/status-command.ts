import { existsSync } from 'node:fs';
import type { JobProgress } from '@assay/core';
import { selectProjects, selectTasks, type LoadedJob } from '@assay/benchmark';
import { openResultsStore, readProjectRecords, readTrialRecords } from '@assay/results';
import type { TemporalTarget } from '@assay/infra/temporal-connection';
import { CliError } from '../cli-error.js';
import { loadJobOrFail } from '../job-input.js';
import { messages } from '../messages.js';
import { probeTcp } from '../probe-tcp.js';
import { repoRoot } from '../repo-root.js';
import { TemporalUnreachableError, connectChecked, temporalTarget } from '../temporal-target.js';
import { renderSummaryTable, summarizeResults } from '../summarize-results.js';
import { renderProjectTable, summarizeProjects } from '../summarize-projects.js';

type WorkflowState = { status: string; progress: unknown } | null;

/** `assay status JOB.yaml`: the workflow's state and progress, and the summary of what is on disk. */
export async function statusCommand(file: string, opts: { json?: boolean; wait?: boolean }): Promise<void> {
  const target = temporalTarget();
  const address = target.address;
  // Before the job file loads: its synchronous parsing would hold the probe's answer past its timeout.
  // A refused port means no Temporal client is even imported.
  const probe = await probeTcp(address);
  const job = loadJobOrFail(file, repoRoot());
  let workflow: WorkflowState = null;
  if (probe !== 'closed') {
    try {
      workflow = await describeJob(job, target, { wait: !!opts.wait, live: !!opts.wait && !opts.json });
    } catch (err) {
      if ((err as Error).name === 'WorkflowNotFoundError') throw new CliError(messages.jobNotFound(job.spec.id));
      // A namespace the job cannot run in is said as such; an unreachable server reads as before.
      if (err instanceof CliError && !(err instanceof TemporalUnreachableError)) throw err;
    }
  }
  if (!workflow && !existsSync(job.resultsDir)) throw new CliError(messages.temporalUnreachable(address));
  // Invalid records are left out of the summary, as before; a missing folder reads as empty.
  const store = openResultsStore(job.resultsDir);
  const records = await readTrialRecords(store, { problems: [] });
  const tasks = selectTasks(job).length;
  const summary =
    tasks > 0 ? summarizeResults(records, new Map(job.spec.systems.map((s) => [s.id, tasks * job.spec.trials]))) : [];
  const projectRecords = await readProjectRecords(store, { problems: [] });
  const projects = summarizeProjects(projectRecords);
  if (opts.json) {
    console.log(
      JSON.stringify({ jobId: job.spec.id, workflow, resultsDir: job.resultsDir, summary, projects }, null, 2),
    );
    if (!workflow) process.exitCode = 1;
    return;
  }
  console.log(
    `job ${job.spec.id}: ${workflow ? workflow.status.toLowerCase() : 'server unreachable'}; ${records.length} trial record(s), ${projectRecords.length} project record(s) in ${job.resultsDir}`,
  );
  const control = (workflow?.progress as JobProgress | null | undefined)?.control;
  if (control) console.log(messages.controlApplied(job.spec.id, control));
  if (summary.length > 0) console.log(renderSummaryTable(summary));
  if (projects.length > 0) console.log(renderProjectTable(projects));
  // What is on disk was shown, but the job's state is unknown: not a success.
  if (!workflow) throw new CliError(messages.temporalUnreachable(address));
}

/**
 * The workflow's state and progress; with `wait`, after the job finished (`live`: showing its progress
 * meanwhile; with --json the answer stays one document).
 */
async function describeJob(
  job: LoadedJob,
  target: TemporalTarget,
  how: { wait: boolean; live: boolean },
): Promise<WorkflowState> {
  const { Client } = await import('@temporalio/client');
  const { jobProgressQuery, jobWorkflowId } = await import('@assay/workflows/definitions');
  const connection = await connectChecked(target, { connectTimeoutMs: 3000, log: (l) => console.error(l) });
  try {
    const namespace = target.namespace;
    const handle = new Client({ connection, namespace }).workflow.getHandle(jobWorkflowId(job.spec.id));
    if (how.live) await waitShowingProgress(job, handle, namespace);
    else if (how.wait) await handle.result().catch(() => undefined);
    const d = await handle.describe();
    // A query needs a worker to replay the workflow; a finished job's progress is its result.
    const progress =
      d.status.name === 'RUNNING'
        ? await handle.query(jobProgressQuery).catch(() => null)
        : d.status.name === 'COMPLETED'
          ? await handle.result().catch(() => null)
          : null;
    return { status: d.status.name, progress };
  } finally {
    await connection.close();
  }
}

type JobHandle = ReturnType<InstanceType<typeof import('@temporalio/client').Client>['workflow']['getHandle']>;

async function waitShowingProgress(job: LoadedJob, handle: JobHandle, namespace: string): Promise<void> {
  const [{ jobProgressQuery }, { createJobWatch }, display, { progressPeriodSeconds }, ui, reporter] =
    await Promise.all([
      import('@assay/workflows/definitions'),
      import('../progress/job-watch.js'),
      import('../progress/progress-display.js'),
      import('../progress/progress-period.js'),
      import('../progress/temporal-ui.js'),
      import('../progress-reporter.js'),
    ]);
  const mode = display.displayModeOf({}, process.stdout);
  const link = ui.temporalUiOf(process.env, namespace, await devServerUi());
  const jobLink = ui.workflowLink(link, handle.workflowId);
  if (jobLink) console.log(`Temporal UI: ${jobLink}`);
  const units = (selectTasks(job).length + selectProjects(job).length) * job.spec.trials;
  const plan = { systems: job.spec.systems.map((s) => s.id), unitsPerSystem: units };
  const live = reporter.startProgressReporter({
    query: () => handle.query(jobProgressQuery),
    watch: createJobWatch(openResultsStore(job.resultsDir), plan, Date.now()),
    display: display.createProgressDisplay({
      mode,
      linkOf: (u) => ui.unitLink(link, job.spec.id, u),
      periodSeconds: progressPeriodSeconds(mode),
    }),
  });
  const final = await handle.result().catch(() => null);
  await live.stop(final);
}

/** The UI of the dev server this checkout started, when no TEMPORAL_ADDRESS or profile points elsewhere. */
async function devServerUi(): Promise<string | undefined> {
  if (temporalTarget().external) return undefined;
  const { temporalServerStatus } = await import('@assay/infra');
  return (await temporalServerStatus({ root: repoRoot() }).catch(() => null))?.uiUrl;
}
