// `assay run JOB.yaml`: validate, make sure the server and images are there,
// submit (or resume) the job workflow, run an embedded worker unless told not
// to, show live progress, and print the per-system summary.
import {
  Client,
  WorkflowIdConflictPolicy,
  WorkflowIdReusePolicy,
  type Connection,
  type WorkflowHandle,
} from '@temporalio/client';
import { formatIssue, type LoadedJob } from '@assay/benchmark';
import type { jobWorkflow } from '@assay/workflows';
import { openResultsStore } from '@assay/results';
import { readVersionedRecords } from '../read-versioned-records.js';
import { TASK_QUEUE, jobProgressQuery, jobWorkflowId, type JobProgress } from '@assay/workflows/definitions';
import { CliError } from '../cli-error.js';
import { startProgressReporter } from '../progress-reporter.js';
import type { JobLock } from '@assay/core';
import { checkJobLock, writeJobLock } from '../check-job-lock.js';
import { assertRunnable, jobInputOf, jobPricesOf, loadJobOrFail, parseRetry, writeJobManifest } from '../job-input.js';
import { messages } from '../messages.js';
import { repoRoot } from '../repo-root.js';
import { connectChecked } from '../temporal-target.js';
import {
  createTaskFailureScanner,
  describeTaskFailure,
  taskFailureScanMs,
  watchForStuckTasks,
} from '../workflow-task-failures.js';
import { renderSummaryTable, summarizeResults } from '../summarize-results.js';
import { renderProjectTable, summarizeProjects } from '../summarize-projects.js';
import { ensureImages, ensureTemporal, type Runtime } from '../ensure-runtime.js';
import { createJobWatch, type JobPlan } from '../progress/job-watch.js';
import { createProgressDisplay, displayModeOf } from '../progress/progress-display.js';
import { progressPeriodSeconds } from '../progress/progress-period.js';
import { createPhaseTimer, type PhaseTimer } from '../progress/phase-timer.js';
import { temporalUiOf, unitLink, workflowLink, type TemporalUi } from '../progress/temporal-ui.js';

export interface RunOptions {
  worker: boolean;
  detach?: boolean;
  json?: boolean;
  heartbeatSeconds?: string;
  retry?: string;
  acceptChanges?: boolean;
}

type WorkerModule = Promise<typeof import('../worker/start-worker.js')>;
type RunningWorker = Awaited<ReturnType<Awaited<WorkerModule>['startWorker']>>;
type WorkflowBundleOption = Awaited<ReturnType<Awaited<WorkerModule>['workflowBundle']>>;

export async function runCommand(file: string, opts: RunOptions): Promise<void> {
  const timer = createPhaseTimer();
  timer.mark('cli-loaded');
  // The worker's module graph (Temporal worker, activities, evidence, judge SDKs) loads while the job
  // file is checked and the server and images are ensured: on 2 cores that overlaps I/O waits.
  const workerModule: WorkerModule | null = opts.worker && !opts.detach ? import('../worker/start-worker.js') : null;
  workerModule?.catch(() => undefined);
  // So does the workflow bundle's lookup (hashing its sources, reading the cached bundle).
  const bundle = workerModule?.then((m) => m.workflowBundle()) ?? null;
  bundle?.catch(() => undefined);
  const root = repoRoot();
  const job = loadJobOrFail(file, root);
  for (const w of job.warnings ?? []) console.error(messages.warning(formatIssue(w)));
  const retry = parseRetry(opts.retry);
  await assertRunnable(job, { worker: opts.worker });
  // Before anything is started or written: a unit edited since the job's records were made is refused.
  const lock = await checkJobLock(job, opts.acceptChanges === true);
  timer.mark('job-loaded');
  // Lines before the live view starts (server, images); with --json stdout holds only events.
  const early = (line: string): void => {
    if (!opts.json) console.log(line);
  };
  const { runtime, connection } = await prepareRuntime(job, {
    lock,
    root,
    log: early,
    worker: opts.worker,
    mark: timer.mark,
  });
  const namespace = runtime.target.namespace;
  const input = jobInputOf(job, Number(opts.heartbeatSeconds ?? process.env.ASSAY_HEARTBEAT_SECONDS ?? 30), retry);
  // The worker starts (native connection, reaping, workflow bundle) while the job is submitted.
  const worker = workerModule && bundle ? startEmbeddedWorker(workerModule, bundle, runtime, timer) : null;
  const workflowId = jobWorkflowId(job.spec.id);
  const startedAt = Date.now();
  const handle = await new Client({ connection, namespace }).workflow
    .start('jobWorkflow', {
      workflowId,
      taskQueue: TASK_QUEUE,
      args: [input],
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    })
    .catch(async (err: unknown) => {
      await Promise.all([connection.close().catch(() => undefined), worker?.stop()]);
      // The SDK says only "Failed to start Workflow"; the server's reason is in its cause.
      throw new CliError(messages.startFailed(workflowId, runtime.target.summary, startFailureReason(err)));
    });
  timer.mark('workflow-started');
  const ui = temporalUiOf(process.env, namespace, runtime.uiUrl);
  const link = workflowLink(ui, workflowId);
  const plan = { systems: job.spec.systems.map((s) => s.id), unitsPerSystem: unitsPerSystem(input) };
  if (opts.json && !opts.detach) {
    const start = { event: 'start', jobId: job.spec.id, workflowId, resultsDir: job.resultsDir, ui: link, ...plan };
    console.log(JSON.stringify(start));
  }
  early(`job ${job.spec.id}: workflow ${workflowId} on ${runtime.address} (results in ${job.resultsDir})`);
  if (link) early(`Temporal UI: ${link}`);
  if (opts.detach) {
    if (opts.json) console.log(JSON.stringify({ workflowId, resultsDir: job.resultsDir }));
    await connection.close();
    return;
  }
  let progress: JobProgress;
  try {
    const how = { job, handle, connection, namespace, ui, plan, worker, startedAt, opts, timer };
    progress = await watchJob(how);
  } finally {
    await connection.close();
  }
  await printSummary(job, input, progress, opts.json);
}

/**
 * The server and the images at once; the namespace preflight as soon as the server answers, and
 * job.json once both are there (so a missing engine or server leaves no results folder behind).
 */
async function prepareRuntime(
  job: LoadedJob,
  o: { lock: JobLock; root: string; log: (line: string) => void; worker: boolean; mark: (phase: string) => void },
): Promise<{ runtime: Runtime; connection: Connection }> {
  const temporal = ensureTemporal(o);
  const images = o.worker ? ensureImages(o) : Promise.resolve(null);
  // Namespace, retention and search attributes are checked (and fixed where allowed) before the submit.
  const connection = temporal.then(async (t) => {
    const c = await connectChecked(t.target, { log: o.log, createNamespace: true });
    o.mark('preflight');
    return c;
  });
  const manifest = Promise.all([temporal, images]).then(async () => {
    await writeJobManifest(job);
    await writeJobLock(job, o.lock);
    o.mark('manifest-written');
  });
  try {
    const [t, i, c] = await Promise.all([temporal, images, connection, manifest]);
    return { runtime: { ...t, images: i }, connection: c };
  } catch (err) {
    // Nothing is submitted: a connection that did open is closed.
    void connection.then(
      (c) => c.close(),
      () => undefined,
    );
    throw err;
  }
}

interface EmbeddedWorker {
  /** The running worker; rejects when it could not start. */
  ready: Promise<RunningWorker>;
  /** Where the worker's lines go from now on (those logged before are shown first). */
  attach(log: (line: string) => void): void;
  /** Shuts it down once it has started (nothing when it failed to). */
  stop(): Promise<void>;
}

function startEmbeddedWorker(
  module: WorkerModule,
  bundle: Promise<WorkflowBundleOption>,
  runtime: Runtime,
  timer: PhaseTimer,
): EmbeddedWorker {
  const held: string[] = [];
  let sink: ((line: string) => void) | null = null;
  const log = (line: string): void => {
    if (sink) sink(line);
    else held.push(line);
  };
  const { address, images, target } = runtime;
  const ready = module.then((m) =>
    m.startWorker({
      address,
      namespace: target.namespace,
      connection: target.connectionOptions,
      images: images!,
      log,
      bundle,
    }),
  );
  ready.then(
    () => timer.mark('worker-started'),
    () => undefined,
  );
  return {
    ready,
    attach(to) {
      sink = to;
      for (const line of held.splice(0)) to(line);
    },
    stop: () =>
      ready.then(
        (w) => w.shutdown(),
        () => undefined,
      ),
  };
}

/** Runs the embedded worker (unless --no-worker) and shows live progress until the job is done. */
async function watchJob(a: {
  job: LoadedJob;
  handle: WorkflowHandle<typeof jobWorkflow>;
  connection: Connection;
  namespace: string;
  ui: TemporalUi | null;
  plan: JobPlan;
  worker: EmbeddedWorker | null;
  startedAt: number;
  opts: RunOptions;
  timer: PhaseTimer;
}): Promise<JobProgress> {
  const mode = displayModeOf(a.opts, process.stdout);
  const display = createProgressDisplay({
    mode,
    linkOf: (u) => unitLink(a.ui, a.job.spec.id, u),
    periodSeconds: progressPeriodSeconds(mode),
  });
  // Lines the worker logged while it started are shown now, through the live view.
  a.worker?.attach(display.log);
  const worker = a.worker ? await a.worker.ready : null;
  if (!a.worker) a.timer.mark('worker-started');
  const reporter = startProgressReporter({
    query: () => a.handle.query(jobProgressQuery),
    watch: createJobWatch(openResultsStore(a.job.resultsDir), a.plan, a.startedAt, jobPricesOf(a.job)),
    display,
  });
  // A workflow task failing forever in the background ends the wait with its reason.
  const causes = (await import('@temporalio/proto')).default.temporal.api.enums.v1.WorkflowTaskFailedCause;
  const scanner = createTaskFailureScanner(a.connection.workflowService, causes, a.namespace, a.handle.workflowId);
  const watch = watchForStuckTasks(scanner, taskFailureScanMs());
  let progress: JobProgress | null = null;
  try {
    const outcome = await Promise.race([
      a.handle.result().then((p) => ({ progress: p })),
      watch.stuck.then((stuck) => ({ stuck })),
    ]);
    if ('stuck' in outcome) throw new CliError(outcome.stuck.map(describeTaskFailure).join('\n'));
    progress = outcome.progress;
    return outcome.progress;
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(messages.jobFailed(err instanceof Error ? err.message : String(err)));
  } finally {
    watch.stop();
    await reporter.stop(progress);
    await worker?.shutdown();
  }
}

/** The innermost cause's own words (a gRPC error's details), e.g. "Namespace x is not found". */
function startFailureReason(err: unknown): string {
  let e = err as { cause?: unknown; details?: unknown; message?: unknown } | undefined;
  while (e?.cause) e = e.cause as typeof e;
  const text = typeof e?.details === 'string' && e.details ? e.details : String(e?.message ?? err);
  return text.replace(/\s+/g, ' ').trim().replace(/\.+$/, '');
}

function unitsPerSystem(input: { taskIds: string[]; projectIds: string[]; trials: number }): number {
  return (input.taskIds.length + input.projectIds.length) * input.trials;
}

/** The per-system tables from the records on disk (a JSON `summary` event with --json). */
async function printSummary(
  job: LoadedJob,
  input: { taskIds: string[]; trials: number },
  progress: JobProgress,
  json?: boolean,
): Promise<void> {
  const expected = new Map(job.spec.systems.map((s) => [s.id, input.taskIds.length * input.trials]));
  // Invalid records are left out of the summary, as before.
  const versioned = await readVersionedRecords(openResultsStore(job.resultsDir));
  const { trials: trialRecords, projects: projectRecords, notes: versions } = versioned;
  const summary = input.taskIds.length > 0 ? summarizeResults(trialRecords, expected) : [];
  const projects = summarizeProjects(projectRecords);
  const infraFailed = progress.done.filter((d) => d.status === 'infra-failed');
  if (json) {
    const { skipped } = progress;
    const event = { event: 'summary', jobId: job.spec.id, resultsDir: job.resultsDir, skipped, summary, projects };
    console.log(JSON.stringify({ ...event, infraFailed, ...(versions.length > 0 ? { versions } : {}) }));
  } else {
    console.log('');
    for (const line of versions) console.log(messages.versionsSplit(line));
    if (summary.length > 0) console.log(`Single tasks\n${renderSummaryTable(summary)}\n`);
    if (projects.length > 0)
      console.log(`Multi-stage projects (process and final scores are separate)\n${renderProjectTable(projects)}\n`);
    if (progress.skipped > 0) console.log(`${progress.skipped} trial(s) were already recorded and were not run again.`);
    console.log(
      `Scores are 0–100; "score" needs every rubric item decided, "score (decided items)" counts only items a check or judge decided.`,
    );
    console.log(`Results: ${job.resultsDir}`);
  }
  const cancelled = progress.done.filter((d) => d.status === 'cancelled').length;
  if (cancelled > 0 && !json) console.log(`${cancelled} unit(s) were cancelled; run the job again to run them.`);
  if (infraFailed.length > 0) {
    throw new CliError(
      `${infraFailed.length} trial(s) failed for infrastructure reasons; submit the job again to retry them`,
      2,
    );
  }
}
