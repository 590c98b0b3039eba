// The single-task judge: build the evidence source over the submission and run
// @assay/judge in the job's mode; verdicts are mapped to core's Verdict.
import path from 'node:path';
import { buildSubmissionView } from '@assay/evidence';
import {
  createDirectoryVerdictCache,
  createJudgeModel,
  judgeItems,
  rubricJudgeItems,
  toCoreVerdict,
} from '@assay/judge';
import { EVIDENCE_CONTEXT_VERSION, type JudgeCriteria, type JudgeItems } from '@assay/activities';
import { createEvidenceSource } from './evidence-source.js';

export function createTrialJudge(log: (line: string) => void): JudgeItems {
  return async ({ trial, task, items, outputsDir }) => {
    const view = await buildSubmissionView(outputsDir);
    const evidence = createEvidenceSource(view, {
      pagesDir: path.join(path.dirname(outputsDir), '..', 'pages'),
      contextVersion: EVIDENCE_CONTEXT_VERSION,
    });
    const model = createJudgeModel(trial.judge, { env: process.env });
    const result = await judgeItems({
      items: rubricJudgeItems(items),
      context: { taskId: task.spec.id, title: task.spec.title, request: task.spec.request },
      evidence,
      setup: trial.judge,
      model,
      cache: createDirectoryVerdictCache(path.join(trial.resultsDir, 'judge-cache'), log),
      evidenceContextVersion: EVIDENCE_CONTEXT_VERSION,
    });
    const byId = new Map(items.map((i) => [i.id, i]));
    return result.verdicts.flatMap((v) => {
      const item = byId.get(v.itemId);
      return item ? [toCoreVerdict(v, item)] : [];
    });
  };
}

/** The project judge: checkpoint or final criteria that no check decided, in the job's mode (batched for DeliverBench). */
export function createCriteriaJudge(log: (line: string) => void): JudgeCriteria {
  return async ({ items, request, contextId, outputsDir, judge, resultsDir }) => {
    const view = await buildSubmissionView(outputsDir);
    const evidence = createEvidenceSource(view, {
      pagesDir: path.join(outputsDir, '..', 'pages'),
      contextVersion: EVIDENCE_CONTEXT_VERSION,
    });
    const result = await judgeItems({
      items: items.map((i) => ({ id: i.criterionId, text: i.text, group: i.group, contextKey: request })),
      context: { taskId: contextId, request },
      evidence,
      setup: judge,
      model: createJudgeModel(judge, { env: process.env }),
      cache: createDirectoryVerdictCache(path.join(resultsDir, 'judge-cache'), log),
      evidenceContextVersion: EVIDENCE_CONTEXT_VERSION,
    });
    return new Map(result.verdicts.map((v) => [v.itemId, { decision: v.decision, reason: v.reason }]));
  };
}
