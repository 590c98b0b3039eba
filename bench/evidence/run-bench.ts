// Evidence extraction benchmark: throughput and peak memory on a 26,000-cell workbook (exceljs), a
// 100-page PDF (LibreOffice) and a 50-slide deck (python-pptx), all generated here. Baselines are
// measured in the same run: a plain read + unzip of the same file (no parsing), and for the workbook
// also a full exceljs load.
//   npx tsx bench/evidence/run-bench.ts [--rounds 7]
// Needs soffice, pdfinfo and the fixtures venv (.assay/venv-fixtures with python-pptx).
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { extractFile } from '../../packages/evidence/src/extract/extract-file.js';
import { IsolatedExtractor } from '../../packages/evidence/src/isolate/run-isolated.js';
import { readZip } from '../../packages/evidence/src/zip/read-zip.js';
import { DEFAULT_LIMITS } from '../../packages/evidence/src/limits.js';
import { exceljsLoad, makeDeck, makePdf, makeWorkbook } from '../../packages/evidence/fixtures/make-bench-inputs.js';
import type { FileEvidence } from '../../packages/evidence/src/types.js';

const REPO = resolve(import.meta.dirname, '../..');
const roundsArg = process.argv.indexOf('--rounds');
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 7;

function units(ev: FileEvidence): string {
  if (ev.format === 'xlsx') return `${ev.sheets.reduce((n, s) => n + s.cellCount, 0)} cells`;
  if (ev.format === 'pdf') return `${ev.pageCount} pages`;
  if (ev.format === 'pptx') return `${ev.slides.length} slides`;
  return ev.format;
}

function unitCount(ev: FileEvidence): number {
  if (ev.format === 'xlsx') return ev.sheets.reduce((n, s) => n + s.cellCount, 0);
  if (ev.format === 'pdf') return ev.pageCount;
  if (ev.format === 'pptx') return ev.slides.length;
  return 1;
}

/** Median of ROUNDS timed runs after one warm-up; the minimum is kept too (robust on a busy machine). */
interface Timing {
  median: number;
  min: number;
}

async function median(fn: () => Promise<unknown>): Promise<Timing> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)]!, min: times[0]! };
}

function peak(mode: string, file: string): { ms: number; maxRssMb: number } {
  const rss: Array<{ ms: number; maxRssMb: number }> = [];
  for (let i = 0; i < 3; i++) {
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'measure-peak.ts'), mode, file],
      { cwd: REPO, encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`measure-peak ${mode} failed: ${r.stderr}`);
    rss.push(JSON.parse(r.stdout.trim().split('\n').pop()!) as { ms: number; maxRssMb: number });
  }
  rss.sort((a, b) => a.maxRssMb - b.maxRssMb);
  return rss[1]!;
}

function pdftotext(file: string): void {
  const r = spawnSync('pdftotext', ['-q', file, '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`pdftotext failed: ${r.stderr}`);
}

const fmt = (t: Timing) => `${t.median.toFixed(1)} ms (min ${t.min.toFixed(1)})`;
const ratio = (a: Timing, b: Timing) => `x${(a.median / b.median).toFixed(2)} (mins x${(a.min / b.min).toFixed(2)})`;
const dir = await mkdtemp(join(tmpdir(), 'assay-bench-evidence-'));
try {
  const xlsx = join(dir, 'ledger-26k.xlsx');
  const pptx = join(dir, 'deck-50.pptx');
  const t = performance.now();
  await makeWorkbook(xlsx);
  const pdf = await makePdf(dir);
  makeDeck(pptx);
  console.log(
    `inputs generated in ${((performance.now() - t) / 1000).toFixed(1)} s (exceljs, LibreOffice, python-pptx); medians of ${ROUNDS} rounds\n`,
  );

  const idle = peak('noop', xlsx);
  const warm = new IsolatedExtractor();
  for (const file of [xlsx, pdf, pptx]) {
    const size = (await stat(file)).size;
    const first = await extractFile(file, file);
    if (!first.evidence) throw new Error(`${file}: ${first.notes.join('; ')}`);
    const n = unitCount(first.evidence);
    const unit = units(first.evidence).split(' ')[1];
    const read = await median(async () => {
      const data = await readFile(file);
      if (first.evidence!.format !== 'pdf') await readZip(data, DEFAULT_LIMITS);
    });
    const ours = await median(() => extractFile(file, file));
    await warm.extract(file, file);
    const isolated = await median(() => warm.extract(file, file));
    // Peak memory of a fresh parser process: idle, then after extracting this file once.
    const fresh = new IsolatedExtractor();
    const before = await fresh.stats();
    await fresh.extract(file, file);
    const after = await fresh.stats();
    fresh.close();
    const readPeak = peak('read', file);
    const lines = [
      `${file.split('/').pop()} (${(size / 1024).toFixed(0)} KiB, ${units(first.evidence)})`,
      `extract in-process ${fmt(ours)}: ${((n / ours.median) * 1000).toFixed(0)} ${unit}/s, ${((size / 1024 / 1024 / ours.median) * 1000).toFixed(2)} MiB/s`,
      `  vs read${first.evidence.format === 'pdf' ? '' : '+unzip'} of the same file ${fmt(read)} -> ${ratio(ours, read)}`,
    ];
    if (first.evidence.format === 'pdf') {
      const native = await median(async () => pdftotext(file));
      lines.push(`  vs poppler pdftotext (native, incl. process start) ${fmt(native)} -> ${ratio(ours, native)}`);
    }
    if (first.evidence.format === 'xlsx') {
      const ej = await median(() => exceljsLoad(file));
      const ejPeak = peak('exceljs', file);
      lines.push(
        `  vs exceljs full load ${fmt(ej)} -> ${ratio(ours, ej)}; exceljs peak RSS ${ejPeak.maxRssMb.toFixed(0)} MiB (+${(ejPeak.maxRssMb - idle.maxRssMb).toFixed(0)} over idle)`,
      );
    }
    lines.push(
      `extract isolated (warm parser process) ${fmt(isolated)} -> ${ratio(isolated, ours)} in-process (IPC of the evidence)`,
    );
    if (before && after) {
      lines.push(
        `peak RSS of a fresh parser process ${after.maxRssMb.toFixed(0)} MiB (idle ${before.maxRssMb.toFixed(0)} MiB, +${(after.maxRssMb - before.maxRssMb).toFixed(0)} MiB for this file)`,
      );
    }
    lines.push(
      `  vs read${first.evidence.format === 'pdf' ? '' : '+unzip'} alone: peak ${readPeak.maxRssMb.toFixed(0)} MiB (+${(readPeak.maxRssMb - idle.maxRssMb).toFixed(0)} MiB over an idle ${idle.maxRssMb.toFixed(0)} MiB tsx process)`,
    );
    console.log(`${lines.join('\n  ')}\n`);
  }
  warm.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}
