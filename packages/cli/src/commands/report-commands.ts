// `assay report JOB... --out DIR` and `assay reproduce [--out DIR]`: the papers'
// tables and figures from our runs, and the published figures recomputed.
import path from 'node:path';
import {
  analysisToJson,
  formatHarborJobStats,
  formatReproduceTable,
  isHarborJobDir,
  readHarborJob,
  reproducePublished,
  writeReport,
  writeReproduceReport,
} from '@assay/analysis';
import { CliError } from '../cli-error.js';
import { preferOf } from '../prefer-option.js';
import { messages } from '../messages.js';
import { repoRoot } from '../repo-root.js';
import { resultsDirOf } from '../results-dir-of.js';

export async function reportCommand(
  jobs: string[],
  opts: {
    out: string;
    seed?: string;
    resamples?: string;
    specialized?: string[];
    labels?: string[];
    json?: boolean;
    prefer?: string;
  },
): Promise<void> {
  const prefer = preferOf(opts.prefer);
  const root = repoRoot();
  const jobDirs = jobs.map((j) => resultsDirOf(j, root));
  const result = await writeReport({
    jobDirs,
    outDir: path.resolve(opts.out),
    ...(opts.seed ? { seed: Number(opts.seed) } : {}),
    ...(opts.resamples ? { resamples: Number(opts.resamples) } : {}),
    ...(opts.specialized?.length ? { specializedSystems: opts.specialized } : {}),
    ...(opts.labels?.length ? { humanLabels: opts.labels } : {}),
    prefer,
  }).catch((err: Error) => {
    throw new CliError(err.message.split('\n')[0] ?? String(err));
  });
  if (opts.json) {
    console.log(
      JSON.stringify(
        { html: result.html, notebook: result.notebook, analysis: analysisToJson(result.analysis) },
        null,
        2,
      ),
    );
    return;
  }
  for (const j of result.jobs) {
    for (const p of j.problems) console.log(`note: ${j.jobId}: ${p.file}: ${p.message}`);
    for (const v of j.versions) console.log(`note: ${j.jobId}: ${messages.versionsSplit(v)}`);
    // A Harbor job's own stats beside the trial folders' numbers (read again: cheap, and never scored from).
    const harbor = isHarborJobDir(j.dir) ? readHarborJob(j.dir).harborStats : null;
    if (harbor) for (const line of formatHarborJobStats(j.jobId, harbor)) console.log(line);
  }
  const { labelled, stale, problems } = result.reviews;
  if (labelled > 0 || stale > 0) console.log(messages.reviewLabels(labelled, stale));
  for (const p of problems) console.log(`note: ${p.key}: ${p.message}`);
  console.log(`report: ${result.html}`);
  console.log(`notebook: ${result.notebook}`);
  console.log(
    `${result.figures.length} figures (SVG, PNG) and ${result.tables.length} tables (CSV, Markdown, LaTeX) in ${result.outDir}`,
  );
}

export async function reproduceCommand(opts: { out?: string; published?: string; json?: boolean }): Promise<void> {
  const rows = reproducePublished(opts.published ? { publishedDir: opts.published } : {});
  if (opts.json) console.log(JSON.stringify(rows, null, 2));
  else console.log(formatReproduceTable(rows));
  if (opts.out) {
    const written = await writeReproduceReport({
      outDir: path.resolve(opts.out),
      ...(opts.published ? { publishedDir: opts.published } : {}),
    });
    if (!opts.json) console.log(`report: ${written.html}`);
  }
  const failed = rows.filter((r) => !r.match);
  if (failed.length > 0) throw new CliError(`${failed.length} published value(s) were not reproduced`);
}
