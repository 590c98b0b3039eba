// `assay judge JOB.yaml --judge other.yaml`: re-evaluate the stored submissions (trials, and
// projects from their preserved checkpoint snapshots) of a
// job under another judge setup, without re-running any agent (judge ablations).
// Records go to <results>/judges/<name>/ in the same layout as the job's, so
// `assay report` reads them like any job; the original records are untouched.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
  EVIDENCE_CONTEXT_VERSION,
  casPath,
  readProjectRecords,
  readTrialRecords,
  rejudgeProject,
  trialDir,
  writeJsonAtomic,
} from '@assay/activities';
import { buildSubmissionView, evaluateCheck } from '@assay/evidence';
import {
  createDirectoryVerdictCache,
  loadJudgeSetupFile,
  rejudgeTrial,
  sumJudgeCosts,
  type JudgeCost,
} from '@assay/judge';
import { copyFileSync } from 'node:fs';
import type { ProjectRecord, TrialRecord } from '@assay/core';
import { CliError } from '../cli-error.js';
import { loadJobOrFail } from '../job-input.js';
import { messages } from '../messages.js';
import { repoRoot } from '../repo-root.js';
import { renderSummaryTable, summarizeResults } from '../summarize-results.js';
import { renderProjectTable, summarizeProjects } from '../summarize-projects.js';
import { createEvidenceSource } from '../worker/evidence-source.js';
import { createEvidenceTools } from '../worker/evidence-tools.js';
import { createCriteriaJudge } from '../worker/judge-trial-items.js';

export async function judgeCommand(
  file: string,
  opts: { judge: string; name?: string; json?: boolean },
): Promise<void> {
  const job = loadJobOrFail(file, repoRoot());
  let setup;
  try {
    setup = await loadJudgeSetupFile(opts.judge);
  } catch (err) {
    throw new CliError(err instanceof Error ? err.message : String(err));
  }
  const records = readTrialRecords(job.resultsDir);
  const projectRecords = readProjectRecords(job.resultsDir);
  if (records.length === 0 && projectRecords.length === 0) throw new CliError(messages.noResults(job.resultsDir));
  const name = opts.name ?? path.basename(opts.judge).replace(/\.(ya?ml|json)$/, '');
  const outDir = path.join(job.resultsDir, 'judges', name);
  const scratch = path.join(outDir, 'submissions');
  const cache = createDirectoryVerdictCache(path.join(outDir, 'judge-cache'));
  const costs: JudgeCost[] = [];
  const out: TrialRecord[] = [];
  for (const record of records) {
    const task = job.benchmark.tasks.find((t) => t.spec.id === record.task.id);
    if (!task) continue;
    // Restore the stored deliverables from the content-addressed store.
    const submission = path.join(scratch, record.system.id, record.task.id, String(record.trial));
    rmSync(submission, { recursive: true, force: true });
    for (const d of record.deliverables) {
      mkdirSync(path.dirname(path.join(submission, d.path)), { recursive: true });
      copyFileSync(casPath(job.resultsDir, d.sha256), path.join(submission, d.path));
    }
    mkdirSync(submission, { recursive: true });
    const view = await buildSubmissionView(submission);
    const result = await rejudgeTrial({
      record,
      rubric: task.evaluator.rubric,
      context: { taskId: task.spec.id, title: task.spec.title, request: task.spec.request },
      evidence: createEvidenceSource(view, {
        pagesDir: path.join(submission, '..', `${record.trial}.pages`),
        contextVersion: EVIDENCE_CONTEXT_VERSION,
      }),
      setup,
      evidenceContextVersion: EVIDENCE_CONTEXT_VERSION,
      runCheck: (check) => evaluateCheck(check, view),
      cache,
    });
    writeJsonAtomic(
      path.join(trialDir(outDir, record.system.id, record.task.id, record.trial), 'record.json'),
      result.record,
    );
    costs.push(result.cost);
    out.push(result.record);
    if (!opts.json)
      console.log(
        `  ${record.system.id}/${record.task.id}/${record.trial}: ${result.record.score.value?.toFixed(1) ?? '—'} (was ${record.score.value?.toFixed(1) ?? '—'})`,
      );
  }
  // Projects: every checkpoint from its preserved snapshot, then the final package.
  const projectsOut: ProjectRecord[] = [];
  for (const record of projectRecords) {
    const project = job.benchmark.projects.find((p) => p.spec.id === record.project.id);
    if (!project) continue;
    const where = path.join(record.system.id, record.project.id, String(record.trial));
    const rejudged = await rejudgeProject(
      {
        evidence: createEvidenceTools(),
        judgeCriteria: createCriteriaJudge(() => undefined),
        judge: setup,
        resultsDir: job.resultsDir,
      },
      { record, project, workDir: path.join(scratch, 'projects', where) },
    );
    writeJsonAtomic(path.join(outDir, 'projects', where, 'record.json'), rejudged);
    projectsOut.push(rejudged);
    if (!opts.json)
      console.log(
        `  ${where.replaceAll(path.sep, '/')}: final ${rejudged.final.score?.toFixed(1) ?? '—'} (was ${record.final.score?.toFixed(1) ?? '—'}), process ${rejudged.process.score?.toFixed(1) ?? '—'} (was ${record.process.score?.toFixed(1) ?? '—'})`,
      );
  }
  writeJsonAtomic(path.join(outDir, 'job.json'), {
    layout: 'assay.results/v1',
    rejudgedFrom: job.resultsDir,
    spec: { ...job.spec, judge: setup },
    writtenAt: new Date().toISOString(),
  });
  const expected = new Map(job.spec.systems.map((s) => [s.id, out.filter((r) => r.system.id === s.id).length]));
  const summary = out.length > 0 ? summarizeResults(out, expected) : [];
  const projects = summarizeProjects(projectsOut);
  const cost = sumJudgeCosts(costs);
  if (opts.json) {
    console.log(JSON.stringify({ resultsDir: outDir, summary, projects, judgeCost: cost }, null, 2));
    return;
  }
  if (summary.length > 0) console.log(`\n${renderSummaryTable(summary)}\n`);
  if (projects.length > 0) console.log(`\n${renderProjectTable(projects)}\n`);
  console.log(`Judge cost (kept apart from agent cost): ${JSON.stringify(cost)}`);
  console.log(`Re-judged records: ${outDir}`);
}
