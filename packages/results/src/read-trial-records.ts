import { trialRecordSchema, type TrialRecord } from '@assay/core';
import { isTrialRecordKey, TRIALS_PREFIX } from './results-layout.js';
import { readRecords, type ReadRecordsOptions } from './read-records.js';
import type { ResultsStore } from './results-store.js';

/** Every `trials/<system>/<task>/<trial>/record.json`, validated, in key order. */
export function readTrialRecords(store: ResultsStore, options: ReadRecordsOptions = {}): Promise<TrialRecord[]> {
  return readRecords(store, TRIALS_PREFIX, isTrialRecordKey, trialRecordSchema, options);
}
