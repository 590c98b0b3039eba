// `assay run JOB.yaml`: validate, make sure the server and images are there,
// submit (or resume) the job workflow, run an embedded worker unless told not
// to, and print the per-system summary.
import { Client, Connection, WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/client';
import { openResultsStore, readProjectRecords, readTrialRecords } from '@assay/results';
import { TASK_QUEUE, jobProgressQuery, jobWorkflowId, type JobProgress } from '@assay/workflows/definitions';
import { CliError } from '../cli-error.js';
import { createProgressReporter, outcomeOfProjectRecord, outcomeOfTrialRecord } from '../progress-reporter.js';
import { assertRunnable, jobInputOf, loadJobOrFail, parseRetry, writeJobManifest } from '../job-input.js';
import { messages } from '../messages.js';
import { repoRoot, temporalNamespace } from '../repo-root.js';
import { renderSummaryTable, summarizeResults } from '../summarize-results.js';
import { renderProjectTable, summarizeProjects } from '../summarize-projects.js';
import { ensureRuntime } from '../ensure-runtime.js';
import { startWorker } from '../worker/start-worker.js';

export interface RunOptions {
  worker: boolean;
  detach?: boolean;
  json?: boolean;
  heartbeatSeconds?: string;
  retry?: string;
}

export async function runCommand(file: string, opts: RunOptions): Promise<void> {
  const root = repoRoot();
  const job = loadJobOrFail(file, root);
  const retry = parseRetry(opts.retry);
  assertRunnable(job, { worker: opts.worker });
  const log = (line: string): void => {
    if (!opts.json) console.log(line);
  };
  const runtime = await ensureRuntime({ root, log, needDocker: opts.worker });
  await writeJobManifest(job);

  const connection = await Connection.connect({ address: runtime.address }).catch(() => {
    throw new CliError(messages.temporalUnreachable(runtime.address));
  });
  const client = new Client({ connection, namespace: temporalNamespace() });
  const input = jobInputOf(job, Number(opts.heartbeatSeconds ?? process.env.ASSAY_HEARTBEAT_SECONDS ?? 30), retry);
  const workflowId = jobWorkflowId(job.spec.id);
  const startedAt = new Date().toISOString();
  const handle = await client.workflow.start('jobWorkflow', {
    workflowId,
    taskQueue: TASK_QUEUE,
    args: [input],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
  });
  log(`job ${job.spec.id}: workflow ${workflowId} on ${runtime.address} (results in ${job.resultsDir})`);
  if (opts.detach) {
    if (opts.json) console.log(JSON.stringify({ workflowId, resultsDir: job.resultsDir }));
    await connection.close();
    return;
  }

  const worker = opts.worker
    ? await startWorker({ address: runtime.address, namespace: temporalNamespace(), images: runtime.images!, log })
    : null;
  // Every finished unit is printed exactly once: while polling, and from the final result
  // for those that finished after the last poll.
  const report = createProgressReporter(log);
  // One query at a time, awaited before the connection closes: a query still retrying on a
  // closed channel throws from a timer and would take the process down.
  let inflight: Promise<void> | null = null;
  const poll = setInterval(() => {
    inflight ??= handle
      .query(jobProgressQuery)
      .then(report)
      .catch(() => undefined)
      .finally(() => {
        inflight = null;
      });
  }, 2000);
  let progress: JobProgress;
  try {
    progress = await handle.result();
    report(progress);
  } catch (err) {
    throw new CliError(messages.jobFailed(err instanceof Error ? err.message : String(err)));
  } finally {
    clearInterval(poll);
    await inflight;
    await worker?.shutdown();
    await connection.close();
  }

  const expected = new Map(job.spec.systems.map((s) => [s.id, input.taskIds.length * job.spec.trials]));
  // Invalid records are left out of the summary, as before.
  const store = openResultsStore(job.resultsDir);
  const trialRecords = await readTrialRecords(store, { problems: [] });
  const projectRecords = await readProjectRecords(store, { problems: [] });
  // A continued-as-new job's final progress holds only its last batch: whatever finished in
  // this run that no snapshot showed is printed from its record.
  const recordedNow = (r: { recordedAt: string }) => r.recordedAt >= startedAt;
  report({
    ...progress,
    done: [
      ...trialRecords.filter(recordedNow).map(outcomeOfTrialRecord),
      ...projectRecords.filter(recordedNow).map(outcomeOfProjectRecord),
    ],
  });
  const summary = input.taskIds.length > 0 ? summarizeResults(trialRecords, expected) : [];
  const projects = summarizeProjects(projectRecords);
  const infraFailed = progress.done.filter((d) => d.status === 'infra-failed');
  if (opts.json) {
    console.log(
      JSON.stringify(
        { jobId: job.spec.id, resultsDir: job.resultsDir, skipped: progress.skipped, summary, projects, infraFailed },
        null,
        2,
      ),
    );
  } else {
    console.log('');
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
  if (cancelled > 0) log(`${cancelled} unit(s) were cancelled; run the job again to run them.`);
  if (infraFailed.length > 0) {
    throw new CliError(
      `${infraFailed.length} trial(s) failed for infrastructure reasons; submit the job again to retry them`,
      2,
    );
  }
}
