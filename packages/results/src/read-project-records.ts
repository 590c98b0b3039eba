import { projectRecordSchema, type ProjectRecord } from '@assay/core';
import { isProjectRecordKey, PROJECTS_PREFIX } from './results-layout.js';
import { readRecords, type ReadRecordsOptions } from './read-records.js';
import type { ResultsStore } from './results-store.js';

/** Every `projects/<system>/<project>/<trial>/record.json`, validated, in key order. */
export function readProjectRecords(store: ResultsStore, options: ReadRecordsOptions = {}): Promise<ProjectRecord[]> {
  return readRecords(store, PROJECTS_PREFIX, isProjectRecordKey, projectRecordSchema, options);
}
