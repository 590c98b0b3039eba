// `assay report JOB... --out DIR`: load job results, analyse, write the report.
import { existsSync } from 'node:fs';
import path from 'node:path';

import type { ColumnTable } from 'arquero';
import { analyzeResults } from '../analyze-results.js';
import type { Analysis, AnalysisOptions } from '../analyze-results.js';
import { loadHumanLabels } from '../load-human-labels.js';
import { loadJobs } from '../load-results.js';
import { loadReviewLabels } from '../load-review-labels.js';
import type { JobResults } from '../load-results.js';
import { fromJobResults } from '../results-tables.js';
import { buildReportDocument } from './build-report-document.js';
import { writeDocument } from './write-document.js';
import type { WrittenReport } from './write-document.js';

export interface ReportOptions extends Omit<AnalysisOptions, 'humanLabels'> {
  jobDirs: string[];
  outDir: string;
  title?: string;
  /** Expert-label CSV files; `<jobDir>/human-labels.csv` is picked up automatically. */
  humanLabels?: string[];
  /** Throw on invalid records (default true). */
  strict?: boolean;
}

export interface ReportResult extends WrittenReport {
  analysis: Analysis;
  jobs: Pick<JobResults, 'dir' | 'jobId' | 'problems' | 'versions'>[];
  /** Items labelled by people's reviews in the results stores, and reviews left out (stale or unreadable). */
  reviews: { labelled: number; stale: number; problems: { key: string; message: string }[] };
}

export async function writeReport(options: ReportOptions): Promise<ReportResult> {
  const jobs = await loadJobs(options.jobDirs, { strict: options.strict ?? true });
  const tables = fromJobResults(jobs);
  const labelFiles = [
    ...(options.humanLabels ?? []),
    ...options.jobDirs.map((d) => path.join(d, 'human-labels.csv')).filter((f) => existsSync(f)),
  ];
  // Labels made in the tool (reviews in the results store) first, then label files.
  const reviews = await loadReviewLabels(jobs);
  let humanLabels: ColumnTable | null = reviews.labels;
  for (const f of labelFiles) {
    const t = await loadHumanLabels(f);
    humanLabels = humanLabels ? humanLabels.concat(t) : t;
  }
  const analysis = analyzeResults(tables, {
    ...options,
    humanLabels,
    reviews: reviews.current,
    jobReviews: reviews.byJob,
    jobs,
  });
  const doc = buildReportDocument(analysis, tables, {
    title: options.title ?? `assay report: ${jobs.map((j) => j.jobId).join(', ')}`,
    jobs: jobs.map((j) => j.jobId).join(', '),
    seed: analysis.settings.seed,
    resamples: analysis.settings.resamples,
    generated: new Date().toISOString().slice(0, 19).replace('T', ' ') + ' UTC',
  });
  const written = await writeDocument(doc, options.outDir);
  return {
    ...written,
    analysis,
    jobs: jobs.map((j) => ({ dir: j.dir, jobId: j.jobId, problems: j.problems, versions: j.versions })),
    reviews: { labelled: reviews.labelled, stale: reviews.stale, problems: reviews.problems },
  };
}
