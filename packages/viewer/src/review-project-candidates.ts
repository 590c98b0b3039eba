// Every criterion verdict of a source's project records as a review candidate: each checkpoint's verdicts
// (scope: the subtask whose checkpoint judged them) and the final package's (scope `final`), with the
// criterion's text and check from the benchmark, its content digest now (the job lock's `<scope>/<criterion>`
// item, else the project as the benchmark has it), and the machine's decision and reason. For the sample's
// strata a criterion's "importance" is its target (final criteria), or `checkpoint` (checkpoint criteria have
// none): the same grouping the agreement tables use for project criteria.
import { digestProject, itemDigestsOf } from '@assay/benchmark';
import { projectUnitKey, type CriterionVerdict, type JobLock, type ProjectRecord } from '@assay/core';
import { benchmarkContext, projectContext } from './benchmark-context.js';
import type { ReviewCandidate } from './build-review-queue.js';
import { outputsOf } from './build-project-detail.js';
import { describeCheck } from './describe-check.js';
import { verdictAnchors } from './evidence-anchors.js';
import { unitDigests } from './unit-digests.js';
import type { ViewerSource } from './viewer-source.js';

const FINAL_SCOPE = 'final';

export async function projectCandidates(
  source: ViewerSource,
  projects: readonly ProjectRecord[],
  lock: JobLock | null,
): Promise<ReviewCandidate[]> {
  const ctx = await benchmarkContext(source);
  /** A project's item digests, keyed `<subtask>/<criterion>` and `final/<criterion>` as the lock keys them. */
  const digests = unitDigests(lock, projectUnitKey, (projectId) => {
    const project = ctx.benchmark?.projects.find((p) => p.spec.id === projectId);
    return project ? itemDigestsOf(digestProject(project)) : null;
  });
  const sorted = [...projects].sort(
    (a, b) => a.project.id.localeCompare(b.project.id) || a.system.id.localeCompare(b.system.id) || a.trial - b.trial,
  );
  const out: ReviewCandidate[] = [];
  for (const r of sorted) {
    const context = await projectContext(source, r.project.id);
    const candidate = (
      v: CriterionVerdict,
      scope: string,
      checkpoint: number | null,
      spec: { text: string; check: unknown } | undefined,
      files: readonly string[],
    ): ReviewCandidate => ({
      unit: projectUnitKey(r.project.id),
      system: r.system.id,
      trial: r.trial,
      itemId: v.criterionId,
      scope,
      checkpoint,
      text: spec?.text ?? null,
      check: describeCheck(spec?.check),
      importance: v.target ?? 'checkpoint',
      target: v.target,
      dimension: v.dimension,
      itemDigest: digests(r.project.id)[`${scope}/${v.criterionId}`] ?? null,
      judgeDecision: v.decision,
      judgeReason: v.reason,
      judgeAnchors: verdictAnchors(v, files, spec?.check),
    });
    r.checkpoints.forEach((cp, i) => {
      const specs = context.checkpointCriteria[cp.subtaskId] ?? {};
      const outputs = outputsOf(cp.snapshot.files);
      for (const v of cp.verdicts) out.push(candidate(v, cp.subtaskId, i, specs[v.criterionId], outputs));
    });
    const packageFiles = r.final.packageFiles.map((f) => f.path);
    for (const v of r.final.verdicts)
      out.push(candidate(v, FINAL_SCOPE, null, context.finalCriteria[v.criterionId], packageFiles));
  }
  return out;
}
