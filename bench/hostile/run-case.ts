// One hostile case in a fresh process, so its peak RSS belongs to that case alone (started by
// run-bench.ts, which also samples the parser/renderer children's memory from /proc):
//   node --import tsx bench/hostile/run-case.ts <evidence src/index.ts> <view|render> <case dir> <file>
// Prints one JSON line: {"ms", "outcome", "parentMaxRssMb", "parentIdleRssMb", "textChars"}.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface EvidenceApi {
  buildSubmissionView(dir: string): Promise<{
    files: Array<{ path: string; type: string; notes: string[]; evidence: unknown }>;
    notes: string[];
  }>;
  renderSubmissionText(view: unknown): string;
  renderPageImages(file: string, outDir: string): Promise<{ pages: string[]; notes: string[] }>;
}

const [entry, mode, dir, file] = process.argv.slice(2);
if (!entry || !dir || !file || (mode !== 'view' && mode !== 'render'))
  throw new Error('usage: run-case.ts EVIDENCE_INDEX view|render DIR FILE');
const api = (await import(pathToFileURL(entry).href)) as EvidenceApi;
const rssMb = () => process.resourceUsage().maxRSS / 1024;
const idle = rssMb();
const t0 = performance.now();
let outcome: string;
let textChars = 0;
if (mode === 'view') {
  const view = await api.buildSubmissionView(dir);
  textChars = api.renderSubmissionText(view).length;
  const f = view.files[0];
  const notes = [...(f?.notes ?? []), ...view.notes];
  outcome = `${f?.type ?? 'no entry'}${f?.evidence ? ', evidence kept' : ', no evidence'}${notes.length ? `: ${notes.join(' | ')}` : ''}`;
} else {
  const out = await mkdtemp(join(tmpdir(), 'assay-hostile-render-'));
  try {
    const r = await api.renderPageImages(join(dir, file), out);
    outcome = `${r.pages.length} page images${r.notes.length ? `: ${r.notes.join(' | ')}` : ''}`;
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
const ms = performance.now() - t0;
process.stdout.write(`${JSON.stringify({ ms, outcome, parentMaxRssMb: rssMb(), parentIdleRssMb: idle, textChars })}\n`);
