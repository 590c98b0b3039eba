// The job overview: leaderboards with bootstrap CIs (computed by @assay/analysis, not here),
// status counts per system, and one row per trial / project run for the filters.
import {
  BASIS_COLUMNS,
  deliverySummary,
  fromJobResults,
  scoresWithReviews,
  systemLeaderboard,
  type JobResults,
  type ResultTables,
} from '@assay/analysis';
import { describeVersionSplit, splitByVersion, versionTagOf, type ProjectRecord, type TrialRecord } from '@assay/core';
import { jobControlKey, readReviews } from '@assay/results';
import { readJobControl } from './read-job-control.js';
import { readSourceRecords, type SourceRecords } from './read-source-records.js';
import { reviewStore } from './review-store.js';
import type { ViewerSource } from './viewer-source.js';

/** Fewer than the report's 10,000: the page recomputes on every new record during a run. */
const RESAMPLES = 2000;

interface TrialRow {
  source: string;
  system: string;
  task: string;
  domain: string;
  trial: number;
  status: string;
  score: number | null;
  decided: number | null;
  coverage: number;
  unjudged: number;
  failedItems: number;
  durationSeconds: number;
  tokens: number | null;
  costUsd: number | null;
  /** The task's content version the trial ran (first 8 hex digits), or `unknown-version`. */
  version: string;
}

interface ProjectRow {
  source: string;
  system: string;
  project: string;
  trial: number;
  status: string;
  final: number | null;
  process: number | null;
  gateTriggered: boolean;
  checkpoints: number;
  subtasks: number;
}

export async function buildOverview(sources: readonly ViewerSource[]) {
  const loaded = await Promise.all(
    sources.map(async (s) => ({ source: s, records: await readSourceRecords(s), job: await readJobControl(s) })),
  );
  // Leaderboards never pool two versions of a unit: those not of the current version get `<system>@<version>`.
  const jobs: JobResults[] = loaded.map(({ source, records }) => {
    const trials = splitByVersion(records.trials, records.lock);
    const projects = splitByVersion(records.projects, records.lock);
    return {
      dir: source.dir,
      jobId: source.label,
      job: null,
      trials: trials.records,
      projects: projects.records,
      problems: records.problems.map((p) => ({ file: p.key, message: p.message })),
      versions: [...trials.splits, ...projects.splits].map(describeVersionSplit),
    };
  });
  const tables = fromJobResults(jobs);
  // With a checks-only judge every score is null (unjudged items); the same leaderboard over the
  // decided items' score answers "which is best" for what was decided, labelled as such.
  const decidedTables = fromJobResults(
    jobs.map((j) => ({ ...j, trials: j.trials.map((r) => ({ ...r, score: { ...r.score, value: r.score.decided } })) })),
  );
  const leaderboard = leaderboardOf(tables);
  const decidedLeaderboard = leaderboardOf(decidedTables);
  const reviewed = await reviewedBoard(loaded, jobs);
  const delivery = records(tables.projects)
    ? (deliverySummary(tables.projects, { resamples: RESAMPLES }).objects() as DeliveryRow[])
    : [];
  const trials = loaded.flatMap(({ source, records }) => records.trials.map((r) => trialRow(source, r)));
  const projects = loaded.flatMap(({ source, records }) => records.projects.map((r) => projectRow(source, r)));
  return {
    sources: loaded.map(({ source, records, job }) => ({
      id: source.id,
      label: source.label,
      dir: source.dir,
      judge: source.judge,
      revision: records.revision,
      problems: [...records.problems, ...(job.problem ? [{ key: jobControlKey(), message: job.problem }] : [])],
      /** Units with records of more than one version, one line each (their leaderboard rows are apart). */
      versions: jobs.find((j) => j.dir === source.dir)?.versions ?? [],
      /** The job's control state (job-control.json), null when there is none. */
      control: job.control,
    })),
    // With several sources analysis names systems `<source label>/<system>` when ids clash.
    leaderboard,
    decidedLeaderboard,
    /** With people's reviews (the machine stands where they disagree); null while there are none. */
    reviewedLeaderboard: reviewed?.leaderboard ?? null,
    reviewBasis: reviewed?.basis ?? [],
    delivery,
    statusCounts: statusCounts(trials, projects),
    trials,
    projects,
  };
}

/** Per system: trials by the basis of their score with reviews, disagreements with the machine, stale reviews. */
interface ReviewBasisRow {
  system: string;
  judge: number;
  judgeAndReviews: number;
  reviewsOnly: number;
  disagreements: number;
  stale: number;
}

/**
 * The task leaderboard again with people's reviews applied (core's applyReviews, the machine's verdict standing
 * where they disagree), and the basis of each system's scores; null when no source has reviews.
 */
async function reviewedBoard(
  loaded: readonly { source: ViewerSource; records: SourceRecords }[],
  jobs: readonly JobResults[],
): Promise<{ leaderboard: LeaderboardRow[]; basis: ReviewBasisRow[] } | null> {
  const reviews = await Promise.all(loaded.map(({ source }) => readReviews(reviewStore(source), [])));
  if (reviews.every((r) => r.length === 0)) return null;
  const scored = scoresWithReviews(
    jobs,
    loaded.map(({ records }, i) => ({ reviews: reviews[i]!, lock: records.lock })),
    'judge',
  );
  const basis = (scored.basis.objects() as Record<(typeof BASIS_COLUMNS)[number], never>[]).map((r) => ({
    system: r.system,
    judge: r.judge,
    judgeAndReviews: r.judge_reviews,
    reviewsOnly: r.reviews_only,
    disagreements: r.disagreements,
    stale: r.stale,
  }));
  return { leaderboard: leaderboardOf(fromJobResults(scored.jobs)), basis };
}

function records(table: { numRows(): number }): boolean {
  return table.numRows() > 0;
}

function leaderboardOf(tables: ResultTables) {
  if (!records(tables.trials)) return [];
  return systemLeaderboard(tables.trials, { resamples: RESAMPLES }).objects() as LeaderboardRow[];
}

/** A row of analysis' LEADERBOARD_COLUMNS (scores 0–100, rates in %). */
interface LeaderboardRow {
  system: string;
  model: string | null;
  harness: string;
  tasks: number;
  trials: number;
  scored: number;
  unjudged: number;
  mean: number | null;
  ci_low: number | null;
  ci_high: number | null;
  success_rate: number | null;
  success_ci_low: number | null;
  success_ci_high: number | null;
}

/** A row of analysis' DELIVERY_COLUMNS. */
interface DeliveryRow {
  system: string;
  projects: number;
  final_mean: number | null;
  final_ci_low: number | null;
  final_ci_high: number | null;
  process_mean: number | null;
  process_ci_low: number | null;
  process_ci_high: number | null;
  checkpoints: number;
  checkpoints_judged: number;
  checkpoints_passed: number;
  pass_rate: number | null;
  below_line: number;
  outcomes: number;
}

function trialRow(source: ViewerSource, r: TrialRecord): TrialRow {
  return {
    source: source.id,
    system: r.system.id,
    task: r.task.id,
    domain: r.task.domain,
    trial: r.trial,
    status: r.status,
    score: r.score.value,
    decided: r.score.decided,
    coverage: r.score.coverage,
    unjudged: r.verdicts.filter((v) => v.decision === 'unjudged').length,
    failedItems: r.verdicts.filter((v) => v.decision === 'not-satisfied').length,
    durationSeconds: r.agent.durationSeconds,
    tokens: r.usage ? r.usage.inputTokens + r.usage.outputTokens : null,
    costUsd: r.usage?.costUsd ?? null,
    version: versionTagOf(r),
  };
}

function projectRow(source: ViewerSource, r: ProjectRecord): ProjectRow {
  const failed = r.checkpoints.find((c) => c.agent.status !== 'completed');
  return {
    source: source.id,
    system: r.system.id,
    project: r.project.id,
    trial: r.trial,
    status: failed?.agent.status ?? 'completed',
    final: r.final.score,
    process: r.process.score,
    gateTriggered: r.final.gateTriggered,
    checkpoints: r.checkpoints.length,
    subtasks: r.project.subtasks,
  };
}

/** Per source and system: trials and project runs by status (completed / failed kinds). */
function statusCounts(trials: TrialRow[], projects: ProjectRow[]) {
  const counts = new Map<string, { source: string; system: string; kind: string; byStatus: Record<string, number> }>();
  const add = (source: string, system: string, kind: string, status: string) => {
    const key = `${source}\u0000${system}\u0000${kind}`;
    const entry = counts.get(key) ?? { source, system, kind, byStatus: {} };
    entry.byStatus[status] = (entry.byStatus[status] ?? 0) + 1;
    counts.set(key, entry);
  };
  for (const t of trials) add(t.source, t.system, 'tasks', t.status);
  for (const p of projects) add(p.source, p.system, 'projects', p.status);
  return [...counts.values()];
}
