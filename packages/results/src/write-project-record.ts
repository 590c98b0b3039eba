import { projectRecordSchema, type ProjectRecord } from '@assay/core';
import { projectRecordKey } from './results-layout.js';
import type { ResultsStore } from './results-store.js';

/** Validate and store a project record at its key (atomic; rewriting the same record is harmless). Returns the key. */
export async function writeProjectRecord(store: ResultsStore, record: ProjectRecord): Promise<string> {
  const valid = projectRecordSchema.parse(record);
  const key = projectRecordKey(valid.system.id, valid.project.id, valid.trial);
  await store.putJson(key, valid);
  return key;
}
