// Two sources side by side, as `assay compare` prints them (@assay/analysis's compareRuns over the same
// records the overview shows, split by unit version): what differs in what produced them, the paired
// difference per system and task, and the flipped items, which the page links to both trials.
import { compareRuns, type JobResults } from '@assay/analysis';
import { describeVersionSplit, splitByVersion } from '@assay/core';
import { jobKey } from '@assay/results';
import { NotFoundError } from './build-trial-detail.js';
import { messages } from './messages.js';
import { readSourceRecords } from './read-source-records.js';
import type { ViewerSource } from './viewer-source.js';

/** Fewer than the CLI's 10,000: the page is built on request. */
const RESAMPLES = 2000;

async function resultsOf(source: ViewerSource): Promise<JobResults> {
  const records = await readSourceRecords(source);
  const job = (await source.store.getJson(jobKey()).catch(() => null)) as Record<string, unknown> | null;
  const trials = splitByVersion(records.trials, records.lock);
  const projects = splitByVersion(records.projects, records.lock);
  return {
    dir: source.dir,
    jobId: source.label,
    job,
    trials: trials.records,
    projects: projects.records,
    problems: [],
    versions: [...trials.splits, ...projects.splits].map(describeVersionSplit),
  };
}

export async function buildComparison(sources: readonly ViewerSource[], a: string, b: string) {
  const [sa, sb] = [a, b].map((id) => {
    const s = sources.find((x) => x.id === id);
    if (!s) throw new NotFoundError(messages.unknownSource(id));
    return s;
  });
  const comparison = compareRuns(await resultsOf(sa!), await resultsOf(sb!), { resamples: RESAMPLES });
  return { sources: { a: sa!.id, b: sb!.id }, ...comparison };
}
