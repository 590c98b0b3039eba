import { trialRecordSchema, type TrialRecord } from '@assay/core';
import { trialRecordKey } from './results-layout.js';
import type { ResultsStore } from './results-store.js';

/** Validate and store a trial record at its key (atomic; rewriting the same record is harmless). Returns the key. */
export async function writeTrialRecord(store: ResultsStore, record: TrialRecord): Promise<string> {
  const valid = trialRecordSchema.parse(record);
  const key = trialRecordKey(valid.system.id, valid.task.id, valid.trial);
  await store.putJson(key, valid);
  return key;
}
