// The labels on every container a unit starts: `assay status`, the reaper and `docker ps` find a
// trial's (or a project subtask's) containers by them. The runner adds its own (managed, workflow id).
import type { TrialInput } from '@assay/core';
import { serverLabels, type TemporalServerRef } from './run-agent-container.js';

type Unit =
  | Pick<TrialInput, 'jobId' | 'system' | 'taskId' | 'trial'>
  | { jobId: string; system: { id: string }; project: string; subtask: string; trial: number };

/** `server`: for containers created outside runAgentContainer, which labels its own with the server. */
export function trialLabels(unit: Unit, role: string, server?: TemporalServerRef): Record<string, string> {
  const where: Record<string, string> =
    'taskId' in unit ? { 'assay.task': unit.taskId } : { 'assay.project': unit.project, 'assay.subtask': unit.subtask };
  return {
    ...(server ? serverLabels(server) : {}),
    'assay.job': unit.jobId,
    'assay.system': unit.system.id,
    ...where,
    'assay.trial': String(unit.trial),
    'assay.role': role,
  };
}
