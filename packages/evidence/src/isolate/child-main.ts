// Entry of the isolated parser process (loaded by child-boot.mjs): receives one file at a time over
// IPC and answers with its extraction as JSON in chunks, so no reply can overflow the channel. The
// JSON is measured here: evidence over its size budget (the budget's estimate fell short, e.g. on
// escape-heavy text) is extracted again under a tighter budget, so what leaves this process is
// always within it. Started (and killed on time-out) by run-isolated.ts; never imported.
import { extractFile } from '../extract/extract-file.js';
import type { BudgetOptions } from '../extract/output-budget.js';
import type { EvidenceLimits } from '../limits.js';
import { msg } from '../messages.js';
import type { ExtractResult } from '../types.js';

export interface ChildJob {
  id: number;
  absPath: string;
  name: string;
  limits: EvidenceLimits;
  sizeScope?: BudgetOptions['sizeScope'];
  stats?: boolean;
}

/** Characters per IPC message: far below what a message may carry. */
const CHUNK_CHARS = 1 << 20;
const RETRIES = 3;

const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
const stats = () => ({
  maxRssMb: mb(process.resourceUsage().maxRSS * 1024),
  heapUsedMb: mb(process.memoryUsage().heapUsed),
});

function send(message: object): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!process.send) reject(new Error('no IPC channel'));
    else process.send(message, undefined, undefined, (err) => (err ? reject(err) : resolve()));
  });
}

/** The result as JSON within `maxEvidenceBytes`: cut harder and again if the estimate fell short. */
async function extractWithin(job: ChildJob): Promise<string> {
  const max = job.limits.maxEvidenceBytes;
  let scale = 1;
  let result: ExtractResult | null = null;
  let bytes = 0;
  for (let attempt = 0; attempt <= RETRIES; attempt++) {
    result = await extractFile(job.absPath, job.name, job.limits, { sizeScope: job.sizeScope, scale });
    const json = JSON.stringify(result);
    bytes = Buffer.byteLength(json);
    if (bytes <= max) return json;
    scale *= (max / bytes) * 0.95;
    result = null;
  }
  return JSON.stringify({
    detection: { format: null, type: 'unparsed' },
    evidence: null,
    notes: [msg.evidenceDropped(bytes, max)],
  } satisfies ExtractResult);
}

async function serve(job: ChildJob): Promise<void> {
  if (job.stats) return send({ id: job.id, stats: stats() });
  try {
    const json = await extractWithin(job);
    for (let i = 0; i < json.length; i += CHUNK_CHARS)
      await send({ id: job.id, chunk: json.slice(i, i + CHUNK_CHARS) });
    await send({ id: job.id, done: true, stats: stats() });
  } catch (err) {
    await send({ id: job.id, error: err instanceof Error ? err.message : String(err) });
  }
}

process.on('message', (job: ChildJob) => void serve(job).catch(() => process.exit(1)));
// A parser library's stray rejection (pdfjs after a cancelled stream) must not end the process.
process.on('unhandledRejection', (err) => {
  process.stderr.write(`unhandled rejection: ${err instanceof Error ? err.message : String(err)}\n`);
});
process.on('disconnect', () => process.exit(0));
process.send?.({ ready: true });
