// File I/O edge: read one or more job results folders into validated records.
//
//   <results>/job.json                                         the job as the CLI wrote it (assay.results/v1)
//   <results>/trials/<system>/<task>/<trial>/record.json       TrialRecord (assay.trial-record/v1, @assay/core)
//   <results>/projects/<system>/<project>/<trial>/record.json  ProjectRecord (assay.project-record/v1, @assay/core)
//   <results>/human-labels.csv                                 optional expert labels (see judge-agreement.ts)
// `assay judge` writes re-judged records to <results>/judges/<name>/ in the same layout;
// pass that folder as another job to compare judge setups.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { projectRecordSchema, trialRecordSchema } from '@assay/core';
import type { ProjectRecord, TrialRecord } from '@assay/core';
import { messages } from './messages.js';

export interface JobResults {
  dir: string;
  /** Label of this results folder: the job id, plus `judge:<name>` for re-judged records. */
  jobId: string;
  /** job.json as written, when present (not interpreted beyond its id). */
  job: Record<string, unknown> | null;
  trials: TrialRecord[];
  projects: ProjectRecord[];
  /** Records skipped in non-strict mode, with the reason. */
  problems: { file: string; message: string }[];
}

export interface LoadOptions {
  /** Throw on any invalid record (default); otherwise skip it and list it in `problems`. */
  strict?: boolean;
}

export async function loadJobResults(dir: string, options: LoadOptions = {}): Promise<JobResults> {
  const strict = options.strict ?? true;
  const jobFile = path.join(dir, 'job.json');
  const hasJob = existsSync(jobFile);
  if (!hasJob && !existsSync(path.join(dir, 'trials')) && !existsSync(path.join(dir, 'projects'))) {
    throw new Error(messages.notAResultsDir(dir));
  }
  const job = hasJob ? ((await readJson(jobFile)) as Record<string, unknown>) : null;
  const problems: { file: string; message: string }[] = [];
  const trials: TrialRecord[] = [];
  for (const file of await recordFiles(path.join(dir, 'trials'))) {
    const parsed = trialRecordSchema.safeParse(await readJson(file));
    if (parsed.success) trials.push(parsed.data);
    else
      problems.push({ file, message: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
  }
  const projects: ProjectRecord[] = [];
  for (const file of await recordFiles(path.join(dir, 'projects'))) {
    const parsed = projectRecordSchema.safeParse(await readJson(file));
    if (parsed.success) projects.push(parsed.data);
    else
      problems.push({ file, message: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
  }
  if (strict && problems.length > 0) {
    const details = problems
      .slice(0, 20)
      .map((p) => `  ${p.file}: ${p.message}`)
      .join('\n');
    throw new Error(messages.invalidRecords(problems.length, details));
  }
  return { dir, jobId: jobLabel(dir, job, trials[0]?.jobId ?? projects[0]?.jobId), job, trials, projects, problems };
}

/** The job id from job.json (`spec.id`, or `id`), records, or the folder name; re-judged folders get `+judge:<name>`. */
function jobLabel(dir: string, job: Record<string, unknown> | null, recordJobId: string | undefined): string {
  const spec = job?.spec as Record<string, unknown> | undefined;
  const id =
    [spec?.id, job?.id, recordJobId].find((x): x is string => typeof x === 'string') ??
    path.basename(path.resolve(dir));
  return job && typeof job.rejudgedFrom === 'string' ? `${id}+judge:${path.basename(path.resolve(dir))}` : id;
}

/** Load several jobs; see `fromJobResults` for how system ids are kept apart. */
export async function loadJobs(dirs: readonly string[], options: LoadOptions = {}): Promise<JobResults[]> {
  if (dirs.length === 0) throw new Error(messages.noJobDirs());
  const jobs: JobResults[] = [];
  for (const d of dirs) {
    const j = await loadJobResults(d, options);
    // Two folders of the same job (e.g. copies) still need distinct labels.
    const clash = jobs.filter((x) => x.jobId === j.jobId || x.jobId.startsWith(`${j.jobId}#`)).length;
    jobs.push(clash > 0 ? { ...j, jobId: `${j.jobId}#${clash + 1}` } : j);
  }
  if (jobs.every((j) => j.trials.length === 0 && j.projects.length === 0))
    throw new Error(messages.noResults(dirs.join(', ')));
  return jobs;
}

/** record.json files exactly three levels below `root` (<system>/<unit>/<trial>/record.json), sorted. */
async function recordFiles(root: string): Promise<string[]> {
  if (!existsSync(root)) return [];
  const out: string[] = [];
  for (const system of await subdirs(root)) {
    for (const unit of await subdirs(path.join(root, system))) {
      for (const trial of await subdirs(path.join(root, system, unit))) {
        const file = path.join(root, system, unit, trial, 'record.json');
        if (existsSync(file)) out.push(file);
      }
    }
  }
  return out.sort();
}

async function subdirs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new Error(messages.unreadableJson(file, (err as Error).message));
  }
}
