// Records as the tests read them: through the one results store, like every other reader.
import { listRegularFiles, openResultsStore, readProjectRecords, readTrialRecords } from '@assay/results';
import type { ProjectRecord, TrialRecord } from '@assay/core';

export function readTrials(resultsDir: string): Promise<TrialRecord[]> {
  return readTrialRecords(openResultsStore(resultsDir));
}

export function readProjects(resultsDir: string): Promise<ProjectRecord[]> {
  return readProjectRecords(openResultsStore(resultsDir));
}

export { listRegularFiles };
