// Adapt @assay/evidence to the evaluation activities' EvidenceTools. Views are built with a parser
// from a warm pool (one per view at a time), not a fresh process per evaluation.
import { buildSubmissionView, detectFormat, evaluateCheck, ParserPool, type SubmissionView } from '@assay/evidence';
import type { EvidenceTools } from '@assay/activities';

let shared: ParserPool | null = null;

/** The process's pool, made on first use: ASSAY_PARSER_POOL_SIZE parsers, else sized from the machine. */
export function sharedParserPool(): ParserPool {
  shared ??= new ParserPool({ size: poolSizeFromEnv() });
  return shared;
}

function poolSizeFromEnv(): number | undefined {
  const n = Number(process.env.ASSAY_PARSER_POOL_SIZE);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/** A submission's evidence view, parsed by a member of `pool`. */
export function buildPooledView(pool: ParserPool, dir: string): Promise<SubmissionView> {
  return pool.use((extractor) => buildSubmissionView(dir, { extractor }));
}

export function createEvidenceTools(pool: ParserPool = sharedParserPool()): EvidenceTools {
  return {
    detectFormat: async (file) => detectFormat(file),
    buildView: async (dir) => buildPooledView(pool, dir),
    evaluateCheck: async (check, view) => evaluateCheck(check, view as SubmissionView),
  };
}
