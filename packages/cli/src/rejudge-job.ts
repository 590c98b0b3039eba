// Re-evaluating a job's stored submissions under one judge setup: what `assay judge` does per setup,
// and what each round of batch judging does (with a judge whose turns come from provider batches).
// Items are decided by the same evaluation path as a live run (activities' evaluateItems); records
// go to <results>/judges/<name>/ in the same layout, the original records untouched.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
  evaluateTaskSubmission,
  rejudgeProject,
  withEvaluation,
  writeStartupBenchVerdicts,
  type EvaluationTools,
} from '@assay/activities';
import { digestProject, digestTask, judgeableTask, type LoadedBenchmark, type LoadedJob } from '@assay/benchmark';
import {
  changedSinceRecorded,
  describeUnitChange,
  pinOf,
  projectTrialKey,
  projectUnitKey,
  taskUnitKey,
  trialKey,
  type JobSpec,
  type ProjectRecord,
  type TrialRecord,
  type UnitVersion,
} from '@assay/core';
import {
  JUDGES_PREFIX,
  RESULTS_LAYOUT_VERSION,
  WORK_DIR,
  jobKey,
  jobLockKey,
  judgeRootKey,
  restoreSnapshot,
  scratchRootOf,
  writeProjectRecord,
  writeTrialRecord,
  type ResultsStore,
} from '@assay/results';
import { CliError } from './cli-error.js';
import { readJobLockOrFail } from './check-job-lock.js';
import { messages } from './messages.js';

export interface Rejudging {
  store: ResultsStore;
  out: ResultsStore;
  /** Where submissions are restored: local scratch (the results folder's work/, or the worker's for a remote store). */
  scratch: string;
  setup: JobSpec['judge'];
  tools: EvaluationTools;
  benchmark: LoadedBenchmark;
  print: (line: string) => void;
  /** False for a submission whose verdicts are not final yet (batch judging): its record is not written. */
  keep?: (submissionDir: string) => boolean;
}

export function rejudgingOf(
  job: LoadedJob,
  a: { store: ResultsStore; name: string; setup: JobSpec['judge']; tools: EvaluationTools; out?: ResultsStore },
): Omit<Rejudging, 'print'> {
  return {
    store: a.store,
    // The judge folder for the name, unless told where (a live job's batch judging writes its own records).
    out: a.out ?? a.store.scoped(judgeRootKey(a.name)),
    scratch: path.join(scratchRootOf(job.resultsDir), WORK_DIR, JUDGES_PREFIX, a.name),
    setup: a.setup,
    tools: a.tools,
    benchmark: job.benchmark,
  };
}

/**
 * A submission is judged against the benchmark as it is now: refused when a unit's rubric or request changed
 * since its records were made (the same lines as `run`), unless --accept-changes.
 */
export async function refuseChangedUnits(
  job: LoadedJob,
  trials: TrialRecord[],
  projects: ProjectRecord[],
): Promise<void> {
  const pins = [
    ...trials.flatMap((r) => (r.provenance ? [{ unit: taskUnitKey(r.task.id), ...r.provenance.unit }] : [])),
    ...projects.flatMap((r) => (r.provenance ? [{ unit: projectUnitKey(r.project.id), ...r.provenance.unit }] : [])),
  ];
  const current: Record<string, UnitVersion> = {};
  for (const t of job.benchmark.tasks) current[taskUnitKey(t.spec.id)] = digestTask(t);
  for (const p of job.benchmark.projects) current[projectUnitKey(p.spec.id)] = digestProject(p);
  const changes = changedSinceRecorded(pins, await readJobLockOrFail(job), current);
  if (changes.length > 0)
    throw new CliError(messages.unitsChangedForJudge(changes.length), 1, changes.map(describeUnitChange));
}

/** Every stored trial and project judged again, `concurrency` at once; what was kept, in record order. */
export async function rejudgeRecords(
  ctx: Rejudging,
  records: { trials: readonly TrialRecord[]; projects: readonly ProjectRecord[] },
  concurrency: number,
): Promise<{ trials: TrialRecord[]; projects: ProjectRecord[] }> {
  const trials = (await mapLimit(records.trials, concurrency, (r) => rejudgeTrial(ctx, r))).filter(isRecord);
  const projects = (await mapLimit(records.projects, concurrency, (r) => rejudgeOneProject(ctx, r))).filter(isRecord);
  return { trials, projects };
}

/** The judge folder's job.json and lock (readers split its records by the same versions); scratch removed. */
export async function finishRejudging(ctx: Rejudging, job: LoadedJob): Promise<void> {
  await ctx.out.putJson(jobKey(), {
    layout: RESULTS_LAYOUT_VERSION,
    rejudgedFrom: job.resultsDir,
    spec: { ...job.spec, judge: ctx.setup },
    writtenAt: new Date().toISOString(),
  });
  const lock = await readJobLockOrFail(job);
  if (lock) await ctx.out.putJson(jobLockKey(), lock);
  rmSync(ctx.scratch, { recursive: true, force: true });
}

const isRecord = <T>(x: T | null): x is T => x !== null;

/** `fn` over `xs`, at most `n` at once, results in the order of `xs`. */
async function mapLimit<T, R>(xs: readonly T[], n: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(xs.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < xs.length; i = next++) out[i] = await fn(xs[i] as T);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(n, xs.length)) }, lane));
  return out;
}

const fmt = (x: number | null | undefined): string => (x === null || x === undefined ? '—' : x.toFixed(1));

/** Restore the stored deliverables from the content-addressed store and evaluate them again. */
async function rejudgeTrial(ctx: Rejudging, record: TrialRecord): Promise<TrialRecord | null> {
  const task = ctx.benchmark.tasks.find((t) => t.spec.id === record.task.id);
  // A Harbor task's verifier decides, not a rubric: there is nothing to judge again.
  const judgeable = task ? judgeableTask(task) : null;
  if (!task || !judgeable) return null;
  const dir = path.join(ctx.scratch, 'trials', record.system.id, record.task.id, String(record.trial));
  rmSync(dir, { recursive: true, force: true });
  await restoreSnapshot(ctx.store, record.deliverables, dir);
  // An empty submission is an empty folder (the judge is told it is empty, not that a host path is missing).
  mkdirSync(dir, { recursive: true });
  const evaluation = await evaluateTaskSubmission(ctx.tools, {
    task: judgeable,
    outputsDir: dir,
    deliverables: record.deliverables,
    judgeSetup: ctx.setup,
  });
  if (ctx.keep && !ctx.keep(dir)) return null;
  const rejudged = withJudgedUnit(
    withEvaluation(record, { ...evaluation, formatCompliance: record.formatCompliance }),
    digestTask(task),
  );
  await writeTrialRecord(ctx.out, rejudged);
  // Beside the record in the judge's folder, as a live trial writes it beside its own.
  const at = { system: record.system.id, task: record.task.id, trial: record.trial };
  await writeStartupBenchVerdicts(ctx.out, at, judgeable, rejudged.verdicts);
  ctx.print(
    `  ${trialKey(record.system.id, record.task.id, record.trial)}: ${fmt(rejudged.score.value)} (was ${fmt(record.score.value)})`,
  );
  return rejudged;
}

/**
 * A record judged against another version than its agent ran (`--accept-changes`) says so: `unit` stays what
 * the agent ran (records split by it), `judgedUnit` is what decided the verdicts. Records without provenance
 * stay without it.
 */
function withJudgedUnit<R extends TrialRecord | ProjectRecord>(record: R, now: UnitVersion): R {
  const provenance = record.provenance;
  if (!provenance) return record;
  const { judgedUnit: _before, ...rest } = provenance;
  return { ...record, provenance: provenance.unit.digest === now.digest ? rest : { ...rest, judgedUnit: pinOf(now) } };
}

/** Every checkpoint from its preserved snapshot, then the final package. */
async function rejudgeOneProject(ctx: Rejudging, record: ProjectRecord): Promise<ProjectRecord | null> {
  const project = ctx.benchmark.projects.find((p) => p.spec.id === record.project.id);
  if (!project) return null;
  const where = projectTrialKey(record.system.id, record.project.id, record.trial);
  const workDir = path.join(ctx.scratch, 'projects', where);
  const judged = await rejudgeProject(
    { ...ctx.tools, judgeSetup: ctx.setup, store: ctx.store },
    { record, project, workDir },
  );
  if (ctx.keep && !ctx.keep(workDir)) return null;
  const rejudged = withJudgedUnit(judged, digestProject(project));
  await writeProjectRecord(ctx.out, rejudged);
  ctx.print(
    `  ${where}: final ${fmt(rejudged.final.score)} (was ${fmt(record.final.score)}), ` +
      `process ${fmt(rejudged.process.score)} (was ${fmt(record.process.score)})`,
  );
  return rejudged;
}
