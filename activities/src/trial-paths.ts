// Layout of a job's results folder (documented in the README, "Results layout").
import path from 'node:path';
import type { TrialInput } from '@assay/core';

export const RESULTS_LAYOUT_VERSION = 'assay.results/v1';

export function trialDir(resultsDir: string, systemId: string, taskId: string, trial: number): string {
  return path.join(resultsDir, 'trials', systemId, taskId, String(trial));
}

export interface TrialPaths {
  /** Where record.json, transcript and agent result live. */
  dir: string;
  record: string;
  agentResult: string;
  transcript: string;
  /** Scratch area of the trial: the mounted workspace and the instruction folder. */
  workDir: string;
  workspace: string;
  instructionDir: string;
  preparedMarker: string;
}

export function trialPaths(t: Pick<TrialInput, 'resultsDir' | 'system' | 'taskId' | 'trial'>): TrialPaths {
  const dir = trialDir(t.resultsDir, t.system.id, t.taskId, t.trial);
  const workDir = path.join(t.resultsDir, 'work', t.system.id, t.taskId, String(t.trial));
  return {
    dir,
    record: path.join(dir, 'record.json'),
    agentResult: path.join(dir, 'agent-result.json'),
    transcript: path.join(dir, 'transcript.log'),
    workDir,
    workspace: path.join(workDir, 'workspace'),
    instructionDir: path.join(workDir, 'assay'),
    preparedMarker: path.join(workDir, '.prepared'),
  };
}

export function casPath(resultsDir: string, sha256: string): string {
  return path.join(resultsDir, 'cas', 'sha256', sha256.slice(0, 2), sha256);
}
