// The one place a job's judge setup becomes a real judge: @assay/judge over @assay/evidence,
// with the verdict cache and page images under the job's results folder. Used by the worker
// and by `assay judge` alike.
import path from 'node:path';
import { EVIDENCE_CONTEXT_VERSION, type JudgeFactory } from '@assay/activities';
import { buildSubmissionView } from '@assay/evidence';
import { createDirectoryVerdictCache, createJudge, createJudgeModel, type JudgeRunResult } from '@assay/judge';
import { createEvidenceSource } from './evidence-source.js';

export function createJudgeFactory(opts: {
  log: (line: string) => void;
  onRun?: (run: JudgeRunResult) => void;
}): JudgeFactory {
  return (setup, { resultsDir }) => {
    if (setup.mode === 'checks-only') return null;
    return createJudge({
      setup,
      model: createJudgeModel(setup, { env: process.env }),
      openEvidence: async (dir) =>
        createEvidenceSource(await buildSubmissionView(dir), {
          // Page images are rendered once per file content, whichever trial or setup asks.
          pagesDir: path.join(resultsDir, 'pages'),
          contextVersion: EVIDENCE_CONTEXT_VERSION,
        }),
      evidenceContextVersion: EVIDENCE_CONTEXT_VERSION,
      cache: createDirectoryVerdictCache(path.join(resultsDir, 'judge-cache'), opts.log),
      onRun: opts.onRun,
    });
  };
}
