// `assay feedback JOB.yaml --system S --project P [--trial N] --file F`: scripted client
// feedback into a running project, through a Temporal update the workflow acknowledges.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { projectTrialKey, projectWorkflowId } from '@assay/core';
import { injectFeedbackUpdate } from '@assay/workflows/definitions';
import { CliError } from '../cli-error.js';
import { loadJobOrFail } from '../job-input.js';
import { repoRoot } from '../repo-root.js';
import { connectChecked, temporalTarget } from '../temporal-target.js';

export async function feedbackCommand(
  file: string,
  opts: { system: string; project: string; trial?: string; file: string; name?: string; json?: boolean },
): Promise<void> {
  const job = loadJobOrFail(file, repoRoot());
  let text: string;
  try {
    text = readFileSync(opts.file, 'utf8');
  } catch {
    throw new CliError(`cannot read the feedback file ${opts.file}`);
  }
  const target = await temporalTarget();
  const connection = await connectChecked(target, { connectTimeoutMs: 5000 });
  try {
    const client = new Client({ connection, namespace: target.namespace });
    const id = projectWorkflowId(job.spec.id, projectTrialKey(opts.system, opts.project, Number(opts.trial ?? 1)));
    const ack = await client.workflow
      .getHandle(id)
      .executeUpdate(injectFeedbackUpdate, {
        args: [{ name: opts.name ?? path.basename(opts.file), text }],
      })
      .catch((err: Error) => {
        throw new CliError(
          `feedback was not accepted by ${id}: ${err.cause instanceof Error ? err.cause.message : err.message}`,
        );
      });
    if (opts.json) console.log(JSON.stringify({ workflowId: id, ...ack }));
    else console.log(`accepted by ${id}; released before ${ack.releaseBefore ?? 'the next subtask'}`);
  } finally {
    await connection.close();
  }
}
