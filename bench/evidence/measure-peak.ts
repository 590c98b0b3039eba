// One measurement in a fresh process (so peak RSS belongs to that work alone):
//   tsx measure-peak.ts <noop|read|exceljs|extract> <file>
// Prints {"ms":..., "maxRssMb":...}. Started by run-bench.ts.
import { readFile } from 'node:fs/promises';
import { extractFile } from '../../packages/evidence/src/extract/extract-file.js';
import { readZip } from '../../packages/evidence/src/zip/read-zip.js';
import { DEFAULT_LIMITS } from '../../packages/evidence/src/limits.js';

const [mode, file] = process.argv.slice(2);
if (!mode || !file) throw new Error('usage: measure-peak.ts MODE FILE');

const t0 = performance.now();
if (mode === 'read') {
  // Baseline: read the bytes and, for a zip package, decompress every entry — no parsing.
  const data = await readFile(file);
  if (data.subarray(0, 2).toString('latin1') === 'PK') await readZip(data, DEFAULT_LIMITS);
} else if (mode === 'exceljs') {
  const { exceljsLoad } = await import('../../packages/evidence/fixtures/make-bench-inputs.js');
  await exceljsLoad(file);
} else if (mode === 'extract') {
  const r = await extractFile(file, file);
  if (!r.evidence) throw new Error(`no evidence: ${r.notes.join('; ')}`);
}
const ms = performance.now() - t0;
process.stdout.write(`${JSON.stringify({ ms, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
