import { statSync } from 'node:fs';
import { HARBOR_PREFIX, formatIssue, inspectBenchmark, inspectJob, type Issue } from '@assay/benchmark';
import { CliError } from '../cli-error.js';
import { messages } from '../messages.js';
import { repoRoot } from '../repo-root.js';

/** Every problem of `target` (a benchmark folder, else a job file), and what it is when it has none. */
function inspectTarget(target: string): { issues: Issue[]; warnings: Issue[]; what: string } {
  let isDir = target.startsWith(HARBOR_PREFIX);
  try {
    isDir ||= statSync(target).isDirectory();
  } catch {
    isDir = false;
  }
  if (isDir) {
    const { benchmark, issues, warnings = [] } = inspectBenchmark(target);
    const what = benchmark
      ? `benchmark "${benchmark.index.id}" (${benchmark.tasks.length} tasks, ${benchmark.projects.length} projects)`
      : target;
    return { issues, warnings, what };
  }
  const { job, issues, warnings } = inspectJob(target, { repoRoot: repoRoot() });
  return { issues, warnings, what: job ? `job "${job.spec.id}"` : target };
}

/** `assay validate PATH`: a benchmark folder or a job file; every problem as file:field: reason. */
export function validateCommand(target: string, opts: { json?: boolean }): void {
  if (!opts.json) {
    const { issues, warnings, what } = inspectTarget(target);
    for (const w of warnings) console.error(messages.warning(formatIssue(w)));
    if (issues.length > 0) throw new CliError(messages.invalidInput(issues.length), 1, issues.map(formatIssue));
    console.log(messages.valid(what));
    return;
  }
  // With --json the answer is JSON whatever happens, also when validation itself fails.
  let out: { valid: boolean; issues: Issue[]; warnings?: Issue[]; error?: string };
  try {
    const { issues, warnings } = inspectTarget(target);
    out = { valid: issues.length === 0, issues, warnings };
  } catch (err) {
    out = { valid: false, issues: [], error: err instanceof Error ? err.message.split('\n')[0] : String(err) };
  }
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  if (!out.valid) process.exitCode = 1;
}
