// `assay judge JOB.yaml --judge other.yaml`: re-evaluate the stored submissions (trials, and
// projects from their preserved checkpoint snapshots) of a job under another judge setup,
// without re-running any agent (judge ablations); see rejudge-job.ts. `--batch` sends the judge's
// turns through the provider's batch API, durably on Temporal (judge-batch-command.ts).
import path from 'node:path';
import { createExtractionCache } from '@assay/evidence';
import { JUDGE_COMMAND_CONCURRENCY_BOUNDS, type JobSpec, type ProjectRecord, type TrialRecord } from '@assay/core';
import { judgeCost, loadJudgeSetupFile, sumJudgeCosts, type JudgeCost } from '@assay/judge';
import {
  EVIDENCE_CACHE_DIR,
  openResultsStore,
  readProjectRecords,
  readTrialRecords,
  scratchRootOf,
} from '@assay/results';
import { CliError } from '../cli-error.js';
import { jobPricesOf, loadJobOrFail } from '../job-input.js';
import { messages } from '../messages.js';
import { repoRoot } from '../repo-root.js';
import { finishRejudging, refuseChangedUnits, rejudgeRecords, rejudgingOf } from '../rejudge-job.js';
import { renderSummaryTable, summarizeResults } from '../summarize-results.js';
import { renderProjectTable, summarizeProjects } from '../summarize-projects.js';
import { createEvidenceTools, sharedParserPool } from '../worker/evidence-tools.js';
import { createJudgeFactory } from '../worker/create-judge-factory.js';

export interface NamedSetup {
  name: string;
  setup: JobSpec['judge'];
}

/** One setup's outcome, as printed (and as `--json` gives it). */
export interface SetupResult {
  trials: TrialRecord[];
  projects: ProjectRecord[];
  cost: JudgeCost;
  outDir: string;
  /** Files whose evidence was parsed for this setup, and served from the extraction cache (null: not counted). */
  evidence: { parsed: number; reused: number } | null;
}

export interface JudgeOptions {
  judge: string[];
  name?: string;
  json?: boolean;
  concurrency?: string;
  acceptChanges?: boolean;
  batch?: boolean;
  pollSeconds?: string;
  /** False with --no-worker. */
  worker?: boolean;
}

/** The job, its setups and stored records, checked: what both ways of judging start from. */
export async function openJudging(file: string, opts: JudgeOptions) {
  const job = loadJobOrFail(file, repoRoot());
  const setups = await loadSetups(opts.judge, opts.name);
  const concurrency = concurrencyOf(opts.concurrency);
  const store = openResultsStore(job.resultsDir);
  const records = await readTrialRecords(store, { problems: [] });
  const projectRecords = await readProjectRecords(store, { problems: [] });
  if (records.length === 0 && projectRecords.length === 0) throw new CliError(messages.noResults(job.resultsDir));
  if (!opts.acceptChanges) await refuseChangedUnits(job, records, projectRecords);
  return { job, setups, concurrency, store, records: { trials: records, projects: projectRecords } };
}

export async function judgeCommand(file: string, opts: JudgeOptions): Promise<void> {
  if (!opts.batch && opts.pollSeconds !== undefined)
    throw new CliError(messages.batchOptionWithoutBatch('--poll-seconds'));
  if (!opts.batch && opts.worker === false) throw new CliError(messages.batchOptionWithoutBatch('--no-worker'));
  // A setup that says `batch: true` is judged through batches as with --batch.
  if (opts.batch || (await loadSetups(opts.judge, opts.name)).some((s) => s.setup.batch)) {
    const { judgeBatchCommand } = await import('./judge-batch-command.js');
    return judgeBatchCommand(file, opts);
  }
  const { job, setups, concurrency, store, records } = await openJudging(file, opts);
  // One evidence build for every setup and trial: files are parsed once per content, here and in later runs.
  const extraction = createExtractionCache({ dir: path.join(scratchRootOf(job.resultsDir), EVIDENCE_CACHE_DIR) });
  const evidence = createEvidenceTools(sharedParserPool(), extraction);
  const results: SetupResult[] = [];
  for (const { name, setup } of setups) {
    const costs: JudgeCost[] = [];
    const judgeFor = createJudgeFactory({
      log: () => undefined,
      // Priced with the job's table (its `prices:` over the sourced defaults); unpriced models stay null.
      onRun: (run) => costs.push(judgeCost(run, setup.model ? jobPricesOf(job)[setup.model] : undefined)),
      extraction,
    });
    const before = { ...extraction.stats };
    const tools = { evidence, judge: judgeFor(setup, { resultsDir: job.resultsDir }) };
    const ctx = {
      ...rejudgingOf(job, { store, name, setup, tools }),
      print: opts.json ? () => undefined : (line: string) => console.log(line),
    };
    if (setups.length > 1) ctx.print(`judge setup ${name}:`);
    const { trials, projects } = await rejudgeRecords(ctx, records, concurrency);
    await finishRejudging(ctx, job);
    const parsed = extraction.stats.parsed - before.parsed;
    const reused = extraction.stats.reused - before.reused;
    results.push({
      trials,
      projects,
      cost: sumJudgeCosts(costs),
      outDir: ctx.out.location,
      evidence: { parsed, reused },
    });
  }
  const expected = (trials: TrialRecord[]) =>
    new Map(job.spec.systems.map((s) => [s.id, trials.filter((r) => r.system.id === s.id).length]));
  printResults(results, expected, opts.json === true);
}

function concurrencyOf(value: string | undefined): number {
  if (value === undefined) return 4;
  const n = Number(value);
  const { min, max } = JUDGE_COMMAND_CONCURRENCY_BOUNDS;
  if (!Number.isInteger(n) || n < min || n > max) throw new CliError(messages.badJudgeConcurrency(value));
  return n;
}

export async function loadSetups(files: readonly string[], name: string | undefined): Promise<NamedSetup[]> {
  if (name !== undefined && files.length > 1) throw new CliError(messages.judgeNameWithSetups(files.length));
  const out: NamedSetup[] = [];
  for (const f of files) {
    const n = name ?? path.basename(f).replace(/\.(ya?ml|json)$/, '');
    if (out.some((s) => s.name === n)) throw new CliError(messages.judgeNameTwice(f, n));
    out.push({ name: n, setup: await loadSetup(f) });
  }
  return out;
}

async function loadSetup(file: string): Promise<JobSpec['judge']> {
  try {
    return await loadJudgeSetupFile(file);
  } catch (err) {
    throw new CliError(err instanceof Error ? err.message : String(err));
  }
}

export function printResults(
  results: readonly SetupResult[],
  expected: (trials: TrialRecord[]) => Map<string, number>,
  json: boolean,
): void {
  const views = results.map((r) => ({
    resultsDir: r.outDir,
    summary: r.trials.length > 0 ? summarizeResults(r.trials, expected(r.trials)) : [],
    projects: summarizeProjects(r.projects),
    judgeCost: r.cost,
    evidence: r.evidence,
  }));
  if (json) {
    // One setup keeps the single-object shape scripts already read.
    console.log(JSON.stringify(views.length === 1 ? views[0] : { setups: views }, null, 2));
    return;
  }
  for (const v of views) {
    if (v.summary.length > 0) console.log(`\n${renderSummaryTable(v.summary)}\n`);
    if (v.projects.length > 0) console.log(`\n${renderProjectTable(v.projects)}\n`);
    console.log(`Judge cost (kept apart from agent cost): ${JSON.stringify(v.judgeCost)}`);
    if (v.evidence) console.log(`Evidence: ${v.evidence.parsed} files parsed, ${v.evidence.reused} reused`);
    console.log(`Re-judged records: ${v.resultsDir}`);
  }
}
