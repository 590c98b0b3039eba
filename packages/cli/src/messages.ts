// Every user-facing sentence of the CLI, in one place.
import type { Budget, JobControl, Spend } from '@assay/core';
import { CONCURRENCY_BOUNDS, GRACE_SECONDS_BOUNDS, JUDGE_COMMAND_CONCURRENCY_BOUNDS } from '@assay/core/bounds';

const spendText = (s: Spend): string =>
  `$${s.usd.toFixed(2)}, ${Math.round(s.tokens)} tokens, ${s.agentHours.toFixed(2)} agent-hours` +
  (s.unpricedTokens > 0 ? ` (${Math.round(s.unpricedTokens)} tokens of unpriced models not in $)` : '');
const budgetText = (b: Budget): string =>
  [b.usd !== undefined ? `$${b.usd}` : '', b.tokens !== undefined ? `${b.tokens} tokens` : '']
    .concat(b.agentHours !== undefined ? [`${b.agentHours} agent-hours`] : [])
    .filter(Boolean)
    .join(', ') + ` (${b.covers})`;

export const messages = {
  invalidInput: (count: number) => `found ${count} problem${count === 1 ? '' : 's'}; nothing was started`,
  valid: (what: string) => `${what} is valid`,
  warning: (line: string) => `warning: ${line}`,
  temporalUnreachable: (address: string, reason?: string) =>
    `cannot reach the Temporal server at ${address}${reason ? ` (${reason})` : ''}: start it with "pnpm assay server start" or set TEMPORAL_ADDRESS`,
  dockerUnreachable: 'cannot reach a Docker engine: run "pnpm assay setup" (as root) or set DOCKER_HOST',
  harnessNotRunnable: (system: string, harness: string, runnable: readonly string[]) =>
    `system "${system}" uses harness "${harness}", which this build cannot run yet (runnable: ${runnable.join(', ')})`,
  jobNotFound: (jobId: string) =>
    `no job "${jobId}" on this Temporal server (submit it with "pnpm assay run JOB.yaml")`,
  noResults: (dir: string) => `no trial records under ${dir}`,
  badJudgeConcurrency: (value: string) =>
    `--concurrency: "${value}" is not a whole number from ${JUDGE_COMMAND_CONCURRENCY_BOUNDS.min} to ${JUDGE_COMMAND_CONCURRENCY_BOUNDS.max}`,
  batchNeedsModel: (name: string, mode: string) =>
    `--batch: judge setup "${name}" (mode ${mode}) calls no model: nothing to send through a batch API`,
  batchOptionWithoutBatch: (option: string) => `${option}: only with --batch`,
  badPollSeconds: (value: string) => `--poll-seconds: "${value}" is not a whole number of seconds from 1 to 3600`,
  judgeBatchFailed: (name: string, reason: string) => `batch judging "${name}" failed: ${reason}`,
  judgeNameWithSetups: (count: number) =>
    `--name: names one judge setup, but ${count} --judge files were given (each is named by its file name)`,
  judgeNameTwice: (file: string, name: string) =>
    `--judge ${file}: another setup is already named "${name}" (results would share judges/${name}/)`,
  jobFailed: (reason: string) => `the job failed: ${reason}`,
  unitsChanged: (count: number, jobId: string) =>
    `${count} unit${count === 1 ? '' : 's'} of job "${jobId}" changed since its records were made; nothing was started. ` +
    `Run it under a new job id to keep the versions apart, or again with --accept-changes to go on with the new ` +
    `version (its trials are recorded with the new digest and shown apart from the old ones):`,
  compareAgreement:
    'Item verdicts, A vs B: items decided on both sides, raw agreement and Cohen’s kappa; satisfied on both/A ' +
    'only/B only/neither; items decided on one side only (the other left them unjudged)',
  compareScores: (metric: 'score' | 'decided') =>
    `Scores (${metric === 'score' ? 'every item decided' : 'decided items only: a run has no trial with every item decided'}), ` +
    'A − B over the tasks both ran: task-cluster bootstrap 95% CI (BCa where defined), McNemar on success',
  compareFlips: (count: number) => `Items whose verdict differs (${count})`,
  compareProjects: (metric: 'score' | 'decided') =>
    `Multi-stage projects (${metric === 'score' ? 'every criterion decided' : 'decided criteria only: a run has no final score with every criterion decided'}), ` +
    'A − B over the projects both ran (final and process scores apart; paired bootstrap 95% CI, McNemar)',
  compareCriterionFlips: (count: number) => `Project criteria whose verdict differs (${count})`,
  compareMoreFlips: (count: number) => `  … and ${count} more (--flips N shows more, --json all)`,
  versionsSplit: (line: string) => `versions: ${line}; scores of different versions are never pooled`,
  badReviewer: (name: string) =>
    `--reviewer: "${name}" is not a reviewer name (1–64 letters, digits, ".", "-" or "_", starting with a letter or digit)`,
  labelRefused: (where: string, field: string, reason: string) => `${where}: ${field}: ${reason}; nothing was imported`,
  reviewsImported: (count: number, reviewer: string, dir: string) =>
    `imported ${count} label${count === 1 ? '' : 's'} as reviews by ${reviewer} into ${dir}/reviews/${reviewer}/`,
  reviewsStale: (count: number) =>
    `note: ${count} review${count === 1 ? '' : 's'} of items that changed since left out (stale)`,
  withReviews: (count: number, prefer: 'judge' | 'reviews') =>
    `with people's reviews (${count} review${count === 1 ? '' : 's'}; where a person and the machine disagree the ` +
    `${prefer === 'judge' ? "machine's verdict stands (--prefer reviews takes the person's)" : "person's decision is used (--prefer reviews)"}):`,
  badPrefer: (value: string) => `--prefer: "${value}" is not one of judge, reviews`,
  reviewLabels: (labelled: number, stale: number) =>
    `labels: ${labelled} item${labelled === 1 ? '' : 's'} labelled by people's reviews in the results` +
    (stale > 0 ? `; ${stale} review${stale === 1 ? '' : 's'} of items that changed since left out (stale)` : ''),
  setupChanged: (jobId: string) =>
    `job "${jobId}" no longer runs what its records were made with; nothing was started. A system changed under ` +
    `its id is a new system: give it a new id (the old one's trials stay as they are). A changed judge, limit or ` +
    `resource is a new job: run it under a new job id (to re-judge stored submissions, use \`assay judge\`):`,
  unitsChangedForJudge: (count: number) =>
    `${count} unit${count === 1 ? '' : 's'} changed since ${count === 1 ? 'its' : 'their'} records were made: their ` +
    `submissions would be judged against the new version; nothing was judged. Judge them under the version they ` +
    `ran (restore it), or pass --accept-changes:`,
  jobLockUnreadable: (location: string, reason: string) =>
    `${location}/job-lock.json: cannot be read (${reason}); it records what the job's results were produced from: ` +
    `restore it, or run the job under a new id`,
  jobStuck: (jobId: string, count: number) =>
    `job "${jobId}" cannot make progress: ${count === 1 ? 'one of its workflows has' : `${count} of its workflows have`} a workflow task that keeps failing (above)`,
  startFailed: (workflowId: string, server: string, reason: string) =>
    `the Temporal server at ${server} did not start workflow ${workflowId}: ${reason}`,
  jobNotRunning: (jobId: string) =>
    `job "${jobId}" is not running on this Temporal server (only a running job can be paused, resumed, cancelled or resized)`,
  controlRefused: (what: string, reason: string) => `${what} was refused by the job: ${reason}`,
  controlApplied: (jobId: string, c: JobControl) =>
    `job ${jobId}: ${c.state}${c.reason ? ` (${c.reason})` : ''}; concurrency ${c.concurrency}` +
    (c.spend && c.projected
      ? `\nspend ${spendText(c.spend)}; projected to the end of the job ${spendText(c.projected)}` +
        (c.budget ? `; budget ${budgetText(c.budget)}` : '')
      : ''),
  /** A job that is no longer running: its last control state is history, not what it is doing. */
  controlEnded: (jobId: string, status: string, c: JobControl) =>
    `job ${jobId}: ${status}; ran at concurrency ${c.concurrency}` +
    (c.state !== 'running' ? ` (last control state: ${c.state}${c.reason ? `, ${c.reason}` : ''})` : '') +
    (c.spend ? `\nspent ${spendText(c.spend)}` + (c.budget ? `; budget ${budgetText(c.budget)}` : '') : ''),
  badRetry: (kind: string, kinds: readonly string[]) =>
    `--retry takes a comma-separated list of ${kinds.join(', ')}, got "${kind}"`,
  badGrace: (value: string) =>
    `--grace: "${value}" is not a number of seconds from ${GRACE_SECONDS_BOUNDS.min} to ${GRACE_SECONDS_BOUNDS.max}`,
  badConcurrency: (value: string) =>
    `set-concurrency <n>: "${value}" is not a whole number from ${CONCURRENCY_BOUNDS.min} to ${CONCURRENCY_BOUNDS.max}`,
} as const;
