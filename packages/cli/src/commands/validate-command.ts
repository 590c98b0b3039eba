import { statSync } from 'node:fs';
import { formatIssue, inspectBenchmark, inspectJob, type Issue } from '@assay/benchmark';
import { CliError } from '../cli-error.js';
import { messages } from '../messages.js';
import { repoRoot } from '../repo-root.js';

/** `assay validate PATH`: a benchmark folder or a job file; every problem as file:field: reason. */
export function validateCommand(target: string, opts: { json?: boolean }): void {
  let issues: Issue[];
  let what: string;
  let isDir = false;
  try {
    isDir = statSync(target).isDirectory();
  } catch {
    isDir = false;
  }
  if (isDir) {
    const result = inspectBenchmark(target);
    issues = result.issues;
    what = result.benchmark
      ? `benchmark "${result.benchmark.index.id}" (${result.benchmark.tasks.length} tasks, ${result.benchmark.projects.length} projects)`
      : target;
  } else {
    const result = inspectJob(target, { repoRoot: repoRoot() });
    issues = result.issues;
    what = result.job ? `job "${result.job.spec.id}"` : target;
  }
  if (opts.json) {
    process.stdout.write(`${JSON.stringify({ valid: issues.length === 0, issues }, null, 2)}\n`);
    if (issues.length > 0) process.exitCode = 1;
    return;
  }
  if (issues.length > 0) throw new CliError(messages.invalidInput(issues.length), 1, issues.map(formatIssue));
  console.log(messages.valid(what));
}
