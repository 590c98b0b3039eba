// Entry of the isolated parser process (loaded by child-boot.mjs): receives one file at a time over IPC, answers with its
// extraction. Started (and killed on time-out) by run-isolated.ts; never imported.
import { extractFile } from '../extract/extract-file.js';
import type { EvidenceLimits } from '../limits.js';

interface Job {
  id: number;
  absPath: string;
  name: string;
  limits: EvidenceLimits;
  stats?: boolean;
}

process.on('message', (job: Job) => {
  if (job.stats) {
    const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
    process.send?.({
      id: job.id,
      stats: { maxRssMb: mb(process.resourceUsage().maxRSS * 1024), heapUsedMb: mb(process.memoryUsage().heapUsed) },
    });
    return;
  }
  void extractFile(job.absPath, job.name, job.limits)
    .then((result) => process.send?.({ id: job.id, result }))
    .catch((err: unknown) => process.send?.({ id: job.id, error: err instanceof Error ? err.message : String(err) }));
});
process.on('disconnect', () => process.exit(0));
process.send?.({ ready: true });
