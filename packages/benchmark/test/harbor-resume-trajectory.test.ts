// A system's harbor.resumeTrajectory (Harbor's agent.resume_trajectory) in the job file: read by the job schema,
// and refused for an agent that cannot resume on a dataset with multi-step tasks, as Harbor's
// MultiStepTrial._validate_resume_support refuses it before any environment is built.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { formatIssue, inspectJob } from '../src/index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'assay-harbor-resume-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function issuesOf(dataset: string, systems: unknown[]): string[] {
  const jobFile = path.join(tmp, 'job.yaml');
  const benchmark = `harbor:${path.join(ROOT, 'test/fixtures/harbor', dataset)}`;
  writeFileSync(jobFile, stringify({ schema: 'assay.job/v1', id: 'resume', benchmark, results: './r', systems }));
  return inspectJob(jobFile, { repoRoot: ROOT, cwd: tmp, machine: false }).issues.map(formatIssue);
}

const resuming = { resumeTrajectory: true };
const codex = { id: 'codex', harness: 'codex', model: 'gpt-5', harbor: resuming };

describe('harbor.resumeTrajectory', () => {
  it('is taken for a model CLI, and refused for oracle and nop on multi-step tasks', () => {
    const issues = issuesOf('steps', [
      codex,
      { id: 'nanobot', harness: 'nanobot', model: 'm', harbor: resuming },
      { id: 'oracle', harness: 'oracle', harbor: resuming },
      { id: 'nop', harness: 'nop', harbor: { resumeTrajectory: false } },
    ]);
    expect(issues).toEqual([
      expect.stringMatching(
        /^job\.yaml:systems\[oracle\]\.harbor\.resumeTrajectory: "oracle" does not support resume, so it cannot honor harbor\.resumeTrajectory \(Harbor's agent\.resume_trajectory\) on the steps of .*steps\/[a-z-]+\/task\.toml, as Harbor refuses such a trial: turn it off for this system, or use a model CLI \(line \d+, column \d+\)$/,
      ),
    ]);
  });

  it('has no effect on single-step tasks (Harbor: a no-op), so oracle may keep it there', () => {
    expect(issuesOf('dataset', [{ id: 'oracle', harness: 'oracle', harbor: resuming }])).toEqual([]);
  });

  it('is a boolean, and the harbor block takes no other key', () => {
    const issues = issuesOf('steps', [{ ...codex, harbor: { resumeTrajectory: 'yes', resume_trajectory: true } }]);
    expect(issues.join('\n')).toMatch(/systems\[codex\]\.harbor\.resumeTrajectory: .*boolean/);
    expect(issues.join('\n')).toMatch(/systems\[codex\]\.harbor.*resume_trajectory/);
  });
});
