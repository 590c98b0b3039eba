import { existsSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { jobProgressQuery, jobWorkflowId, type JobProgress } from '@assay/workflows/definitions';
import { selectTasks } from '@assay/benchmark';
import { openResultsStore, readProjectRecords, readTrialRecords } from '@assay/results';
import { CliError } from '../cli-error.js';
import { loadJobOrFail } from '../job-input.js';
import { messages } from '../messages.js';
import { repoRoot, temporalAddress, temporalNamespace } from '../repo-root.js';
import { renderSummaryTable, summarizeResults } from '../summarize-results.js';
import { renderProjectTable, summarizeProjects } from '../summarize-projects.js';

/** `assay status JOB.yaml`: the workflow's state and progress, and the summary of what is on disk. */
export async function statusCommand(file: string, opts: { json?: boolean; wait?: boolean }): Promise<void> {
  const job = loadJobOrFail(file, repoRoot());
  const address = temporalAddress();
  let workflow: { status: string; progress: unknown } | null = null;
  try {
    const connection = await Connection.connect({ address, connectTimeout: 3000 });
    const client = new Client({ connection, namespace: temporalNamespace() });
    const handle = client.workflow.getHandle(jobWorkflowId(job.spec.id));
    if (opts.wait) await handle.result().catch(() => undefined);
    const d = await handle.describe();
    // A query needs a worker to replay the workflow; a finished job's progress is its result.
    const progress =
      d.status.name === 'RUNNING'
        ? await handle.query(jobProgressQuery).catch(() => null)
        : d.status.name === 'COMPLETED'
          ? await handle.result().catch(() => null)
          : null;
    workflow = { status: d.status.name, progress };
    await connection.close();
  } catch (err) {
    if ((err as Error).name === 'WorkflowNotFoundError') throw new CliError(messages.jobNotFound(job.spec.id));
    if (!existsSync(job.resultsDir)) throw new CliError(messages.temporalUnreachable(address));
  }
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
