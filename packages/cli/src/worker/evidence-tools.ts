// Adapt @assay/evidence to the evaluation activities' EvidenceTools. Views are built with a parser
// from the worker's warm pool (one per view at a time), not a fresh process per evaluation.
import { buildSubmissionView, detectFormat, evaluateCheck, ParserPool, type SubmissionView } from '@assay/evidence';
import type { EvidenceTools } from '@assay/activities';

export function createEvidenceTools(pool: ParserPool = new ParserPool()): EvidenceTools {
  return {
    detectFormat: async (file) => detectFormat(file),
    buildView: async (dir) => pool.use((extractor) => buildSubmissionView(dir, { extractor })),
    evaluateCheck: async (check, view) => evaluateCheck(check, view as SubmissionView),
  };
}
