import { existsSync } from 'node:fs';
import { JOB_PROGRESS_QUERY, describeEndpoint, jobWorkflowId, type JobProgress } from '@assay/core';
import type { JobOutline } from '@assay/benchmark';
import {
  isRemoteLocation,
  jobKey,
  openResultsStore,
  readReviews,
  storeErrorSentence,
  type ResultsStore,
} from '@assay/results';
import type { TemporalTarget } from '@assay/infra/temporal-connection';
import { CliError } from '../cli-error.js';
import { preferOf } from '../prefer-option.js';
import { jobPricesOf, loadJobOutlineOrFail } from '../job-input.js';
import { messages } from '../messages.js';
import { probeTcp } from '../probe-tcp.js';
import { repoRoot } from '../repo-root.js';
import { TemporalUnreachableError, temporalTarget } from '../temporal-target.js';
import type { WorkflowTaskFailure } from '../workflow-task-failures.js';
import { readVersionedRecords } from '../read-versioned-records.js';
import { renderSummaryTable, summarizeResults } from '../summarize-results.js';
import { renderReviewTable, summarizeWithReviews } from '../summarize-reviews.js';
import { renderProjectTable, summarizeProjects } from '../summarize-projects.js';

type WorkflowState = { status: string; progress: unknown; workflowTaskFailures: WorkflowTaskFailure[] } | null;

/** `assay status JOB.yaml`: the workflow's state and progress, and the summary of what is on disk. */
export async function statusCommand(
  file: string,
  opts: { json?: boolean; wait?: boolean; prefer?: string },
): Promise<void> {
  const prefer = preferOf(opts.prefer);
  const target = await temporalTarget();
  const address = target.address;
  // Before the job file loads: its synchronous parsing would hold the probe's answer past its timeout.
  // A refused port means no Temporal client is even imported.
  const probe = await probeTcp(address);
  const job = loadJobOutlineOrFail(file, repoRoot());
  let workflow: WorkflowState = null;
  if (probe !== 'closed') {
    try {
      workflow = await describeJob(job, target, { wait: !!opts.wait, live: !!opts.wait && !opts.json });
    } catch (err) {
      // A namespace the job cannot run in is said as such; an unreachable server reads as before.
      if (err instanceof CliError && !(err instanceof TemporalUnreachableError)) throw err;
    }
  }
  const store = openResultsStore(job.resultsDir);
  if (!workflow && !(await hasResults(job.resultsDir, store)))
    throw new CliError(messages.temporalUnreachable(address));
  // Invalid records are left out of the summary, as before; a missing folder reads as empty.
  // Split by unit version: trials of an edited task are never pooled with those before the edit.
  const versioned = await readVersionedRecords(store).catch((err: unknown) => {
    throw storeError(job.resultsDir, err);
  });
  const { trials: records, projects: projectRecords, notes: versions } = versioned;
  const tasks = job.taskIds.length;
  const summary =
    tasks > 0 ? summarizeResults(records, new Map(job.spec.systems.map((s) => [s.id, tasks * job.spec.trials]))) : [];
  const projects = summarizeProjects(projectRecords);
  // People's reviews, when there are any: the scores with them beside the machine's, never instead.
  const reviews = await readReviews(store, []).catch((err: unknown) => {
    throw storeError(job.resultsDir, err);
  });
  const reviewed = reviews.length > 0 ? summarizeWithReviews(records, reviews, versioned.lock, prefer) : null;
  if (opts.json) {
    const withReviews = reviewed ? { reviews: { prefer, summary: reviewed } } : {};
    const out = {
      jobId: job.spec.id,
      workflow,
      resultsDir: job.resultsDir,
      summary,
      projects,
      versions,
      ...withReviews,
    };
    console.log(JSON.stringify(out, null, 2));
    if (!workflow || workflow.workflowTaskFailures.length > 0) process.exitCode = 1;
    return;
  }
  console.log(
    `job ${job.spec.id}: ${workflow ? workflow.status.toLowerCase() : 'server unreachable'}; ${records.length} trial record(s), ${projectRecords.length} project record(s) in ${job.resultsDir}`,
  );
  const stuck = workflow?.workflowTaskFailures ?? [];
  if (stuck.length > 0) {
    const { describeTaskFailure } = await import('../workflow-task-failures.js');
    for (const f of stuck) console.log(`error: ${describeTaskFailure(f)}`);
  }
  const control = (workflow?.progress as JobProgress | null | undefined)?.control;
  if (control && workflow)
    console.log(
      workflow.status === 'RUNNING'
        ? messages.controlApplied(job.spec.id, control)
        : messages.controlEnded(job.spec.id, workflow.status.toLowerCase(), control),
    );
  for (const e of (workflow?.progress as JobProgress | null | undefined)?.endpoints ?? [])
    console.log(`back-pressure: ${describeEndpoint(e)}`);
  for (const line of versions) console.log(messages.versionsSplit(line));
  if (summary.length > 0) console.log(renderSummaryTable(summary));
  if (reviewed && reviewed.length > 0)
    console.log(`${messages.withReviews(reviews.length, prefer)}\n${renderReviewTable(reviewed)}`);
  if (projects.length > 0) console.log(renderProjectTable(projects));
  // What is on disk was shown, but the job's state is unknown: not a success.
  if (!workflow) throw new CliError(messages.temporalUnreachable(address));
  if (stuck.length > 0) throw new CliError(messages.jobStuck(job.spec.id, stuck.length));
}

/** Whether the job left anything to summarize: its folder, or its job.json in a remote store. */
async function hasResults(location: string, store: ResultsStore): Promise<boolean> {
  if (!isRemoteLocation(location)) return existsSync(location);
  return store.has(jobKey()).catch((err: unknown) => {
    throw storeError(location, err);
  });
}

/** A remote store that fails while being read: one sentence naming it and why. */
function storeError(location: string, err: unknown): unknown {
  return isRemoteLocation(location) ? new CliError(storeErrorSentence(location, err)) : err;
}

/**
 * The workflow's state and progress; with `wait`, after the job finished (`live`: showing its progress
 * meanwhile; with --json the answer stays one document). Read through the light read connection;
 * the namespace preflight runs only when a call fails or a workflow task is stuck.
 */
async function describeJob(
  job: JobOutline,
  target: TemporalTarget,
  how: { wait: boolean; live: boolean },
): Promise<WorkflowState> {
  // Not @assay/workflows/definitions: it loads @temporalio/workflow (~0.09 s) for a name.
  const [failures, reading] = await Promise.all([
    import('../workflow-task-failures.js'),
    import('../temporal-read/index.js'),
  ]);
  const log = (l: string) => console.error(l);
  const connection = await reading.connectReading(target, 3000);
  try {
    const { namespace } = target;
    const workflowId = jobWorkflowId(job.spec.id);
    const handle: JobHandle = {
      workflowId,
      query: () => connection.query(workflowId, JOB_PROGRESS_QUERY) as Promise<JobProgress>,
      result: () => connection.result(workflowId),
    };
    const scanner = failures.createTaskFailureScanner(connection.service, connection.causeNames, namespace, workflowId);
    if (how.wait) {
      // A stuck workflow task ends the wait: the job would never finish.
      const watch = failures.watchForStuckTasks(scanner, failures.taskFailureScanMs());
      const done = how.live
        ? waitShowingProgress(job, handle, namespace, watch.stuck)
        : handle.result().catch(() => undefined);
      await Promise.race([done, watch.stuck]).finally(watch.stop);
    }
    const d = await connection.service
      .describeWorkflowExecution({ namespace, execution: { workflowId } })
      .catch((err: unknown) => reading.explainCallFailure(target, err, messages.jobNotFound(job.spec.id), log));
    const status = connection.statusName(d.workflowExecutionInfo?.status);
    const running = status === 'RUNNING';
    const workflowTaskFailures = running ? await scanner.scan({ budget: 50 }) : [];
    if (workflowTaskFailures.length > 0) await reading.repairNamespace(target, log);
    // A query needs a worker to replay the workflow (a stuck one would not answer); a finished
    // job's progress is its result.
    const progress =
      running && workflowTaskFailures.length === 0
        ? await handle.query().catch(() => null)
        : status === 'COMPLETED'
          ? await connection.result(workflowId, { wait: false }).catch(() => null)
          : null;
    return { status, progress, workflowTaskFailures };
  } finally {
    connection.close();
  }
}

/** What the live display asks of the job's workflow. */
interface JobHandle {
  workflowId: string;
  query: () => Promise<JobProgress>;
  result: () => Promise<unknown>;
}

async function waitShowingProgress(
  job: JobOutline,
  handle: JobHandle,
  namespace: string,
  until: Promise<unknown>,
): Promise<void> {
  const [{ createJobWatch }, display, { progressPeriodSeconds }, ui, reporter] = await Promise.all([
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
  const units = (job.taskIds.length + job.projectIds.length) * job.spec.trials;
  const plan = { systems: job.spec.systems.map((s) => s.id), unitsPerSystem: units };
  const live = reporter.startProgressReporter({
    query: handle.query,
    watch: createJobWatch(openResultsStore(job.resultsDir), plan, Date.now(), jobPricesOf(job)),
    display: display.createProgressDisplay({
      mode,
      linkOf: (u) => ui.unitLink(link, job.spec.id, u),
      periodSeconds: progressPeriodSeconds(mode),
    }),
  });
  const final = await Promise.race([handle.result().catch(() => null), until.then(() => null)]);
  await live.stop(final as JobProgress | null);
}

/** The UI of the dev server this checkout started, when no TEMPORAL_ADDRESS or profile points elsewhere. */
async function devServerUi(): Promise<string | undefined> {
  if ((await temporalTarget()).external) return undefined;
  const { temporalServerStatus } = await import('@assay/infra');
  return (await temporalServerStatus({ root: repoRoot() }).catch(() => null))?.uiUrl;
}
