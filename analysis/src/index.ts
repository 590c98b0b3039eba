// @assay/analysis: job results -> arquero tables -> statistics -> notebook-style reports.
// File I/O only at the edges (load*, write*, reproducePublished); everything else is pure.

// Loading and tables
export { loadJobResults, loadJobs } from './load-results.js';
export type { JobResults, LoadOptions } from './load-results.js';
export { fromJobResults, fromTrialRecords, fromProjectRecords } from './results-tables.js';
export type { ResultTables } from './results-tables.js';

// Statistics
export { createRng, deriveSeed, DEFAULT_SEED } from './seeded-rng.js';
export type { Rng } from './seeded-rng.js';
export { clusterBootstrap, clustersFrom, DEFAULT_RESAMPLES, DEFAULT_CONFIDENCE } from './cluster-bootstrap.js';
export type { BootstrapOptions, BootstrapResult, ClusterData, Interval } from './cluster-bootstrap.js';
export { kendallTau } from './kendall-tau.js';
export { cohenKappa } from './cohen-kappa.js';
export type { Agreement } from './cohen-kappa.js';
export { mcnemarTest } from './mcnemar-test.js';
export type { McNemarResult } from './mcnemar-test.js';
export { quantileSorted, normCdf, normPpf, roundTo } from './numeric.js';

// StartupBench-style analyses (single tasks)
export { systemLeaderboard, scoreVsSuccess } from './system-leaderboard.js';
export { domainProfile, domainOverall, OVERALL } from './domain-profile.js';
export type { DomainRow } from './domain-profile.js';
export { dimensionProfile } from './dimension-profile.js';
export { importanceProfile, importanceSummary } from './importance-profile.js';
export { formatCompliance } from './format-compliance.js';
export { harborRewards } from './harbor-rewards.js';
export { passAtK, passAtKForTask, eligibleK } from './pass-at-k.js';
export { isHarborJobDir, readHarborJob, HARBOR_FILES } from './read-harbor-job.js';
export type { HarborJobResults, HarborStepInfo, HarborTrialInfo } from './read-harbor-job.js';
export { readHarborText, HARBOR_TEXT_LIMIT, type HarborText } from './read-harbor-text.js';
export {
  compareHarborJobStats,
  formatHarborJobStats,
  type HarborJobStatsComparison,
} from './compare-harbor-job-stats.js';
export { oracleBestOfK, generalVsSpecialized } from './oracle-best-of-k.js';
export type { SystemMeans } from './oracle-best-of-k.js';
export { harnessSwap, summarizeHarnessSwap } from './harness-swap.js';
export type { HarnessMean, HarnessSwapSummary } from './harness-swap.js';
export { pairedComparison, pairwiseComparisons, holm } from './paired-comparison.js';
export type { PairedComparison } from './paired-comparison.js';
export { compareRuns } from './compare-runs.js';
export type {
  CriterionFlip,
  ProjectMeans,
  ProjectScoreDifference,
  ProjectSystemDifference,
} from './compare-projects.js';
export type {
  ItemFlip,
  ProvenanceDifference,
  RunComparison,
  SystemDifference,
  TaskDifference,
} from './compare-runs.js';
export { resourceUse, projectResources } from './resource-use.js';

// DeliverBench-style analyses (multi-stage projects)
export {
  deliverySummary,
  deliveryMeans,
  projectOutcomes,
  belowEqualScoreLine,
  belowLineByProject,
} from './delivery-summary.js';
export type { ProjectOutcome } from './delivery-summary.js';
export { deliveryProfiles, projectProfiles } from './delivery-profiles.js';
export type { ProfileBy, ProfileValue } from './delivery-profiles.js';
export { checkpointTrajectories } from './checkpoint-trajectories.js';

// Judge reliability
export { judgeSetupAgreement } from './judge-agreement.js';
export { loadHumanLabels } from './load-human-labels.js';
export { judgedSetupOf, labelAgreement } from './label-agreement.js';
export type { JudgedSetup, LabelAgreement } from './label-agreement.js';
export { kappaInterval } from './kappa-interval.js';
export { reviewerAgreement } from './reviewer-agreement.js';
export { BASIS_COLUMNS, scoresWithReviews, type JobReviews } from './scores-with-reviews.js';
export { labelsFromReviews, type ReviewLabels } from './labels-from-reviews.js';
export { loadReviewLabels, type LoadedReviewLabels } from './load-review-labels.js';

// Everything at once
export { analyzeResults, analysisToJson } from './analyze-results.js';
export type { Analysis, AnalysisOptions, TaskAnalysis, ProjectAnalysis } from './analyze-results.js';

// Published data and `assay reproduce`
export { resolvePublishedDir, loadPublished } from './published-data.js';
export type { PublishedData } from './published-data.js';
export { reproducePublished, reproduceFrom, reproduceTable, formatReproduceTable } from './reproduce-published.js';
export type { ReproduceRow } from './reproduce-published.js';

// Reports and rendering
export { writeReport } from './report/write-report.js';
export type { ReportOptions, ReportResult } from './report/write-report.js';
export { writeReproduceReport } from './report/write-reproduce-report.js';
export { writeDocument } from './report/write-document.js';
export type { WrittenReport } from './report/write-document.js';
export { buildReportDocument } from './report/build-report-document.js';
export type { ReportDocument, ReportBlock, ReportFigure, ReportTable } from './report/report-document.js';
export { renderSvg, renderPng } from './render/render-figure.js';
export { toCsv, toMarkdown, toLatex } from './render/format-table.js';
export type { ColumnFormat } from './render/format-table.js';
