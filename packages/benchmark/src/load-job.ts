// Load a job YAML: schema defaults (the papers' numbers), benchmark resolved
// relative to the job file, task/project filters checked against the benchmark.
import path from 'node:path';
import { jobSchema, type JobSpec } from '@assay/core';
import { InvalidInputError, type Issue } from './issue.js';
import { inspectBenchmark, type LoadedBenchmark } from './load-benchmark.js';
import { str, strings, type Raw } from './loose.js';
import { messages } from './messages.js';
import { readYamlFile } from './yaml-file.js';

export interface LoadedJob {
  file: string;
  spec: JobSpec;
  benchmark: LoadedBenchmark;
  /** Absolute results folder for this job. */
  resultsDir: string;
}

export function inspectJob(
  file: string,
  opts: { repoRoot: string; cwd?: string },
): { job: LoadedJob | null; issues: Issue[] } {
  const cwd = opts.cwd ?? process.cwd();
  const abs = path.resolve(cwd, file);
  const label = path.relative(cwd, abs) || abs;
  const issues: Issue[] = [];
  const yaml = readYamlFile(abs, label, issues);
  if (!yaml) return { job: null, issues };
  // One pass: the benchmark and the filters are checked even when the job itself has schema problems.
  const spec = yaml.validate(jobSchema);
  const raw = yaml.raw as Raw;
  const benchRel = str(raw.benchmark);
  if (benchRel === undefined) return { job: null, issues };
  const { benchmark, issues: benchIssues, listed } = inspectBenchmark(path.resolve(path.dirname(abs), benchRel), cwd);
  issues.push(...benchIssues);
  if (listed) {
    for (const t of strings(raw.tasks))
      if (!listed.tasks.includes(t.value)) yaml.report(['tasks', t.index], messages.unknownJobTask(t.value, listed.id));
    for (const p of strings(raw.projects))
      if (!listed.projects.includes(p.value))
        yaml.report(['projects', p.index], messages.unknownJobProject(p.value, listed.id));
  }
  if (!spec || !benchmark || issues.length > 0) return { job: null, issues };
  const resultsDir = spec.results
    ? path.resolve(path.dirname(abs), spec.results)
    : path.join(opts.repoRoot, '.assay', 'results', spec.id);
  return { job: { file: abs, spec, benchmark, resultsDir }, issues };
}

export function loadJob(file: string, opts: { repoRoot: string; cwd?: string }): LoadedJob {
  const { job, issues } = inspectJob(file, opts);
  if (!job) throw new InvalidInputError(issues);
  return job;
}

/**
 * The tasks a job runs, in benchmark order. With neither `tasks` nor `projects`
 * the job runs the whole benchmark; naming either runs exactly what is named.
 */
export function selectTasks(job: LoadedJob): LoadedBenchmark['tasks'] {
  const { tasks, projects } = job.spec;
  if (!tasks && !projects) return job.benchmark.tasks;
  const only = new Set(tasks ?? []);
  return job.benchmark.tasks.filter((t) => only.has(t.spec.id));
}

export function selectProjects(job: LoadedJob): LoadedBenchmark['projects'] {
  const { tasks, projects } = job.spec;
  if (!tasks && !projects) return job.benchmark.projects;
  const only = new Set(projects ?? []);
  return job.benchmark.projects.filter((p) => only.has(p.spec.id));
}
