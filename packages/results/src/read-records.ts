// Shared by readTrialRecords / readProjectRecords: every record key under a prefix,
// parsed and validated, in key order.
import type { z } from 'zod';
import { mapInBatches } from './map-in-batches.js';
import type { ResultsStore } from './results-store.js';

export interface RecordProblem {
  key: string;
  message: string;
}

export interface ReadRecordsOptions {
  /** When given, invalid or unparsable records are skipped and described here instead of thrown. */
  problems?: RecordProblem[];
}

/** Reads at once: enough to hide a remote store's latency, few enough for file descriptors. */
const PARALLEL_READS = 16;

export async function readRecords<T>(
  store: ResultsStore,
  prefix: string,
  isRecordKey: (key: string) => boolean,
  schema: z.ZodType<T>,
  options: ReadRecordsOptions,
): Promise<T[]> {
  const keys = (await store.list(prefix)).filter(isRecordKey);
  const results = await mapInBatches(keys, PARALLEL_READS, (key) => readRecord(store, key, schema));
  const problems = results.flatMap((r) => (r && !r.ok ? [r.problem] : []));
  if (problems.length > 0 && !options.problems) {
    const details = problems
      .slice(0, 20)
      .map((p) => `  ${p.key}: ${p.message}`)
      .join('\n');
    throw new Error(`${problems.length} invalid record(s) in ${store.location}:\n${details}`);
  }
  options.problems?.push(...problems);
  return results.flatMap((r) => (r?.ok ? [r.value] : []));
}

type Read<T> = { ok: true; value: T } | { ok: false; problem: RecordProblem };

async function readRecord<T>(store: ResultsStore, key: string, schema: z.ZodType<T>): Promise<Read<T> | null> {
  const text = await store.getText(key);
  // Listed a moment ago but gone now: deleted meanwhile, so not a record any more.
  if (text === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: { key, message: `invalid JSON: ${(err as Error).message}` } };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const message = parsed.error.issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`).join('; ');
  return { ok: false, problem: { key, message } };
}
