// A unit's item digests now, once per unit: the job lock's (what the records were judged against), else the
// unit as the benchmark has it (a job run before locks). Keyed as the lock keys items.
import { lockedItemDigests, type JobLock } from '@assay/core';

export function unitDigests(
  lock: JobLock | null,
  unitKey: (id: string) => string,
  fromBenchmark: (id: string) => Record<string, string> | null,
): (id: string) => Record<string, string> {
  const memo = new Map<string, Record<string, string>>();
  return (id) => {
    let d = memo.get(id);
    if (!d) {
      d = lockedItemDigests(lock, unitKey(id)) ?? fromBenchmark(id) ?? {};
      memo.set(id, d);
    }
    return d;
  };
}
