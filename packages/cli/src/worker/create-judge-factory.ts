// The one place a job's judge setup becomes a real judge: @assay/judge over @assay/evidence,
// with the verdict cache and page images in the job's results store. Used by the worker
// and by `assay judge` alike.
import path from 'node:path';
import { EVIDENCE_CONTEXT_VERSION, type JudgeFactory } from '@assay/activities';
import type { ExtractionCache, ParserPool } from '@assay/evidence';
import { PAGES_PREFIX, isRemoteLocation, openResultsStore, scratchRootOf } from '@assay/results';
import type { JudgeSetup } from '@assay/core';
import {
  awaitingBatchJudge,
  createJudge,
  createJudgeModel,
  withSingleFlight,
  type CreateJudgeOptions,
  type JudgeModel,
  type VerdictCache,
} from '@assay/judge';
import { createEvidenceSource } from './evidence-source.js';
import { createStoreVerdictCache } from './store-verdict-cache.js';
import { buildPooledView, sharedExtractionCache, sharedParserPool } from './evidence-tools.js';

export function createJudgeFactory(opts: {
  log: (line: string) => void;
  onRun?: CreateJudgeOptions['onRun'];
  /** The judge's evidence views are parsed by this pool's warm processes (default: the process's pool). */
  parsers?: ParserPool;
  /** Files already parsed are taken from here (default: the process's cache). */
  extraction?: ExtractionCache;
  /** The judge's model (default: the setup's live model); batch judging answers turns from batches. */
  model?: (setup: JudgeSetup) => JudgeModel;
  /** Wraps the results store's verdict cache (batch judging holds its writes until the last round). */
  wrapCache?: (cache: VerdictCache) => VerdictCache;
}): JudgeFactory {
  const wrap = opts.wrapCache ?? ((c: VerdictCache) => c);
  const parsers = opts.parsers ?? sharedParserPool();
  const extraction = opts.extraction ?? sharedExtractionCache();
  return (setup, { resultsDir }) => {
    if (setup.mode === 'checks-only') return null;
    if (setup.batch) return awaitingBatchJudge;
    return createJudge({
      setup,
      model: opts.model ? opts.model(setup) : createJudgeModel(setup, { env: process.env }),
      openEvidence: async (dir) =>
        createEvidenceSource(await buildPooledView(parsers, dir, extraction), {
          // Page images are rendered once per file content, whichever trial or setup asks: locally (the
          // results folder itself, or the worker's scratch of a remote store), then kept in the store.
          pagesDir: path.join(scratchRootOf(resultsDir), PAGES_PREFIX),
          keepPages: isRemoteLocation(resultsDir) ? openResultsStore(resultsDir).scoped(PAGES_PREFIX) : null,
          contextVersion: EVIDENCE_CONTEXT_VERSION,
        }),
      evidenceContextVersion: EVIDENCE_CONTEXT_VERSION,
      cache: wrap(withSingleFlight(createStoreVerdictCache(openResultsStore(resultsDir), opts.log))),
      onRun: opts.onRun,
    });
  };
}
