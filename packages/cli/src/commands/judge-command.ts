// `assay judge JOB.yaml --judge other.yaml`: re-evaluate the stored submissions (trials, and
// projects from their preserved checkpoint snapshots) of a job under another judge setup,
// without re-running any agent (judge ablations). Items are decided by the same evaluation
// path as a live run (activities' evaluateItems). Records go to <results>/judges/<name>/ in
// the same layout, so `assay report` reads them like any job; the original records are untouched.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { evaluateTaskSubmission, rejudgeProject, withEvaluation, type EvaluationTools } from '@assay/activities';
import type { LoadedBenchmark } from '@assay/benchmark';
import { projectTrialKey, trialKey, type JobSpec, type ProjectRecord, type TrialRecord } from '@assay/core';
import { judgeCost, loadJudgeSetupFile, sumJudgeCosts, type JudgeCost } from '@assay/judge';
import {
  RESULTS_LAYOUT_VERSION,
  jobKey,
  judgeRootKey,
  openResultsStore,
  readProjectRecords,
  readTrialRecords,
  restoreSnapshot,
  scratchRootOf,
  writeProjectRecord,
  writeTrialRecord,
  type ResultsStore,
} from '@assay/results';
import { CliError } from '../cli-error.js';
import { loadJobOrFail } from '../job-input.js';
import { messages } from '../messages.js';
import { repoRoot } from '../repo-root.js';
import { renderSummaryTable, summarizeResults } from '../summarize-results.js';
import { renderProjectTable, summarizeProjects } from '../summarize-projects.js';
import { createEvidenceTools } from '../worker/evidence-tools.js';
import { createJudgeFactory } from '../worker/create-judge-factory.js';

interface Rejudging {
  store: ResultsStore;
  out: ResultsStore;
  scratch: string;
  setup: JobSpec['judge'];
  tools: EvaluationTools;
  benchmark: LoadedBenchmark;
  print: (line: string) => void;
}

export async function judgeCommand(
  file: string,
  opts: { judge: string; name?: string; json?: boolean },
): Promise<void> {
  const job = loadJobOrFail(file, repoRoot());
  const setup = await loadSetup(opts.judge);
  const store = openResultsStore(job.resultsDir);
  const records = await readTrialRecords(store, { problems: [] });
  const projectRecords = await readProjectRecords(store, { problems: [] });
  if (records.length === 0 && projectRecords.length === 0) throw new CliError(messages.noResults(job.resultsDir));
  const name = opts.name ?? path.basename(opts.judge).replace(/\.(ya?ml|json)$/, '');
  const costs: JudgeCost[] = [];
  const judgeFor = createJudgeFactory({ log: () => undefined, onRun: (run) => costs.push(judgeCost(run)) });
  const ctx: Rejudging = {
    store,
    out: store.scoped(judgeRootKey(name)),
    // Restored submissions are local scratch: the results folder's work/, or the worker's for a remote store.
    scratch: path.join(scratchRootOf(job.resultsDir), 'work', 'judges', name),
    setup,
    tools: { evidence: createEvidenceTools(), judge: judgeFor(setup, { resultsDir: job.resultsDir }) },
    benchmark: job.benchmark,
    print: opts.json ? () => undefined : (line) => console.log(line),
  };
  const trials: TrialRecord[] = [];
  for (const record of records) {
    const rejudged = await rejudgeTrial(ctx, record);
    if (rejudged) trials.push(rejudged);
  }
  const projects: ProjectRecord[] = [];
  for (const record of projectRecords) {
    const rejudged = await rejudgeOneProject(ctx, record);
    if (rejudged) projects.push(rejudged);
  }
  await ctx.out.putJson(jobKey(), {
    layout: RESULTS_LAYOUT_VERSION,
    rejudgedFrom: job.resultsDir,
    spec: { ...job.spec, judge: setup },
    writtenAt: new Date().toISOString(),
  });
  rmSync(ctx.scratch, { recursive: true, force: true });
  const expected = new Map(job.spec.systems.map((s) => [s.id, trials.filter((r) => r.system.id === s.id).length]));
  const outDir = ctx.out.location;
  printSummary({ trials, projects, expected, cost: sumJudgeCosts(costs), outDir, json: opts.json === true });
}

async function loadSetup(file: string): Promise<JobSpec['judge']> {
  try {
    return await loadJudgeSetupFile(file);
  } catch (err) {
    throw new CliError(err instanceof Error ? err.message : String(err));
  }
}

const fmt = (x: number | null | undefined): string => (x === null || x === undefined ? '—' : x.toFixed(1));

/** Restore the stored deliverables from the content-addressed store and evaluate them again. */
async function rejudgeTrial(ctx: Rejudging, record: TrialRecord): Promise<TrialRecord | null> {
  const task = ctx.benchmark.tasks.find((t) => t.spec.id === record.task.id);
  if (!task) return null;
  const dir = path.join(ctx.scratch, 'trials', record.system.id, record.task.id, String(record.trial));
  rmSync(dir, { recursive: true, force: true });
  await restoreSnapshot(ctx.store, record.deliverables, dir);
  const evaluation = await evaluateTaskSubmission(ctx.tools, {
    task,
    outputsDir: dir,
    deliverables: record.deliverables,
    judgeSetup: ctx.setup,
  });
  const rejudged = withEvaluation(record, { ...evaluation, formatCompliance: record.formatCompliance });
  await writeTrialRecord(ctx.out, rejudged);
  ctx.print(
    `  ${trialKey(record.system.id, record.task.id, record.trial)}: ${fmt(rejudged.score.value)} (was ${fmt(record.score.value)})`,
  );
  return rejudged;
}

/** Every checkpoint from its preserved snapshot, then the final package. */
async function rejudgeOneProject(ctx: Rejudging, record: ProjectRecord): Promise<ProjectRecord | null> {
  const project = ctx.benchmark.projects.find((p) => p.spec.id === record.project.id);
  if (!project) return null;
  const where = projectTrialKey(record.system.id, record.project.id, record.trial);
  const rejudged = await rejudgeProject(
    { ...ctx.tools, judgeSetup: ctx.setup, store: ctx.store },
    { record, project, workDir: path.join(ctx.scratch, 'projects', where) },
  );
  await writeProjectRecord(ctx.out, rejudged);
  ctx.print(
    `  ${where}: final ${fmt(rejudged.final.score)} (was ${fmt(record.final.score)}), ` +
      `process ${fmt(rejudged.process.score)} (was ${fmt(record.process.score)})`,
  );
  return rejudged;
}

function printSummary(args: {
  trials: TrialRecord[];
  projects: ProjectRecord[];
  expected: Map<string, number>;
  cost: JudgeCost;
  outDir: string;
  json: boolean;
}): void {
  const summary = args.trials.length > 0 ? summarizeResults(args.trials, args.expected) : [];
  const projects = summarizeProjects(args.projects);
  if (args.json) {
    console.log(JSON.stringify({ resultsDir: args.outDir, summary, projects, judgeCost: args.cost }, null, 2));
    return;
  }
  if (summary.length > 0) console.log(`\n${renderSummaryTable(summary)}\n`);
  if (projects.length > 0) console.log(`\n${renderProjectTable(projects)}\n`);
  console.log(`Judge cost (kept apart from agent cost): ${JSON.stringify(args.cost)}`);
  console.log(`Re-judged records: ${args.outDir}`);
}
