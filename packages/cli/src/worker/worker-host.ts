// This worker's host (issue #10): the id its own task queue is named after and its scratch root.
// One id per machine: workers sharing a disk and a Docker engine are one host.
import { hostname } from 'node:os';
import path from 'node:path';
import { hostIdFromName, hostIdProblem } from '@assay/core';
import type { HostIdentity } from '@assay/activities';

/**
 * `--host-id` / ASSAY_HOST_ID, else the machine's name made a plain id; `--work-root` /
 * ASSAY_WORK_ROOT (absolute), else none: work folders stay in each job's results folder.
 */
export function resolveWorkerHost(
  flags: { hostId?: string; workRoot?: string },
  env: NodeJS.ProcessEnv = process.env,
): HostIdentity {
  const given = flags.hostId ?? env.ASSAY_HOST_ID;
  const id = given ?? hostIdFromName(hostname());
  const problem = hostIdProblem(id);
  if (problem) throw new Error(`${flags.hostId ? '--host-id' : 'ASSAY_HOST_ID'}: ${problem}`);
  const workRoot = flags.workRoot ?? env.ASSAY_WORK_ROOT;
  if (workRoot === undefined || workRoot === '') return { id };
  return { id, workRoot: path.resolve(workRoot) };
}
