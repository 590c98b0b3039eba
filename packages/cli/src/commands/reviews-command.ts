// `assay reviews import JOB FILE --reviewer NAME` and `assay reviews export JOB [--out FILE]`: label files
// (the CSV `assay report --labels` reads: system,unit,trial,item[,scope],label) to and from people's reviews in
// the results store. An import is checked whole before anything is written: a line naming a trial or item the
// results do not have is refused by file, line and field, and nothing is stored. Each imported label becomes a
// review of the item as it is now (its digest from the job lock), not blind (made outside assay). The export is
// what `assay report` uses: per item the majority of each reviewer's latest review, stale ones left out.
import { writeFileSync } from 'node:fs';
import { labelsFromReviews, loadHumanLabels } from '@assay/analysis';
import { REVIEWER_NAME } from '@assay/core';
import {
  openResultsStore,
  readJobLock,
  readProjectRecords,
  readReviews,
  readTrialRecords,
  writeReview,
} from '@assay/results';
import { CliError } from '../cli-error.js';
import { reviewsFromLabels, type LabelRow } from '../reviews-from-labels.js';
import { loadJobOutlineOrFail } from '../job-input.js';
import { messages } from '../messages.js';
import { repoRoot } from '../repo-root.js';

export async function reviewsImportCommand(file: string, labels: string, opts: { reviewer?: string }): Promise<void> {
  const reviewer = opts.reviewer ?? '';
  if (!REVIEWER_NAME.test(reviewer)) throw new CliError(messages.badReviewer(reviewer));
  const job = loadJobOutlineOrFail(file, repoRoot());
  const rows = (
    await loadHumanLabels(labels).catch((err: Error) => {
      throw new CliError(err.message);
    })
  ).objects() as LabelRow[];
  const store = openResultsStore(job.resultsDir);
  const [trials, projects, lock] = await Promise.all([
    readTrialRecords(store, { problems: [] }),
    readProjectRecords(store, { problems: [] }),
    readJobLock(store, { strict: false }),
  ]);
  const reviews = reviewsFromLabels(rows, {
    trials,
    projects,
    lock,
    reviewer,
    file: labels,
    resultsDir: job.resultsDir,
  });
  for (const r of reviews) await writeReview(store, r);
  console.log(messages.reviewsImported(reviews.length, reviewer, job.resultsDir));
}

export async function reviewsExportCommand(file: string, opts: { out?: string }): Promise<void> {
  const job = loadJobOutlineOrFail(file, repoRoot());
  const store = openResultsStore(job.resultsDir);
  const problems: { key: string; message: string }[] = [];
  const [reviews, lock] = await Promise.all([readReviews(store, problems), readJobLock(store, { strict: false })]);
  const { labels, stale } = labelsFromReviews(reviews, lock);
  const rows = labels.objects() as LabelRow[];
  const csv =
    [
      'system,unit,trial,item,scope,label',
      ...rows.map((r) => [r.system, r.unit, r.trial, r.item, r.scope ?? '', r.human].join(',')),
    ].join('\n') + '\n';
  if (opts.out) writeFileSync(opts.out, csv);
  else process.stdout.write(csv);
  for (const p of problems) console.error(`note: ${p.key}: ${p.message}`);
  if (stale > 0) console.error(messages.reviewsStale(stale));
}
