// Adapt @assay/evidence to the evaluation activities' EvidenceTools.
import { buildSubmissionView, detectFormat, evaluateCheck, type SubmissionView } from '@assay/evidence';
import type { EvidenceTools } from '@assay/activities';

export function createEvidenceTools(): EvidenceTools {
  return {
    detectFormat: async (file) => detectFormat(file),
    buildView: async (dir) => buildSubmissionView(dir),
    evaluateCheck: async (check, view) => evaluateCheck(check, view as SubmissionView),
  };
}
