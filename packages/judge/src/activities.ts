// Judge activities, Temporal style: plain async functions over serialisable inputs. The
// evidence and checks come from injected functions (packages/evidence); the heartbeat is
// injected too (pass Context.current().heartbeat from @temporalio/activity).
import { judgeSetupSchema, type Check, type CheckOutcome } from '@assay/core';
import { createJudgeModel, type JudgeModelOptions } from './create-judge-model.js';
import type { EvidenceSource } from './evidence-source.js';
import { judgeCost, type JudgeCost } from './judge-cost.js';
import { judgeItems } from './judge-items.js';
import type { JudgeModel } from './judge-model.js';
import type { JudgeContext, JudgeIdentity, JudgeItem, JudgeVerdict, SessionRecord } from './types.js';
import { createDirectoryVerdictCache } from './verdict-cache.js';

/** Where a stored submission lives (e.g. the checkpoint's output folder). */
export interface SubmissionRef {
  dir: string;
  /** Free-form id for logs and labels, e.g. <system>/<task>/<trial>. */
  id?: string;
}

export interface JudgeActivitiesOptions {
  /** Verdict-reuse store (content addressed). */
  cacheDir: string;
  openEvidence: (submission: SubmissionRef) => EvidenceSource | Promise<EvidenceSource>;
  runCheck?: (
    check: Check,
    evidence: EvidenceSource,
    submission: SubmissionRef,
  ) => CheckOutcome | Promise<CheckOutcome>;
  /** Override the model (tests, custom providers); default: built from the setup and env. */
  model?: JudgeModel | ((setup: ReturnType<typeof judgeSetupSchema.parse>) => JudgeModel);
  modelOptions?: JudgeModelOptions;
  heartbeat?: (details: unknown) => void;
  /** Used when neither the input nor the evidence source names one. */
  evidenceContextVersion?: string;
  fallbackAttempts?: number;
  log?: (line: string) => void;
}

export interface JudgeSubmissionInput {
  submission: SubmissionRef;
  items: JudgeItem[];
  context: JudgeContext;
  /** A judge setup (defaults applied here). */
  setup: unknown;
  evidenceContextVersion?: string;
}

export interface JudgeSubmissionOutput {
  verdicts: JudgeVerdict[];
  sessions: SessionRecord[];
  identity: JudgeIdentity | null;
  cost: JudgeCost;
}

export function createJudgeActivities(options: JudgeActivitiesOptions) {
  const cache = createDirectoryVerdictCache(options.cacheDir, options.log);
  return {
    async judgeSubmission(input: JudgeSubmissionInput): Promise<JudgeSubmissionOutput> {
      const setup = judgeSetupSchema.parse(input.setup ?? {});
      const evidence = await options.openEvidence(input.submission);
      const model =
        setup.mode === 'checks-only'
          ? null
          : typeof options.model === 'function'
            ? options.model(setup)
            : (options.model ?? createJudgeModel(setup, options.modelOptions));
      const run = await judgeItems({
        items: input.items,
        context: input.context,
        evidence,
        setup,
        model,
        runCheck: options.runCheck ? (check) => options.runCheck!(check, evidence, input.submission) : undefined,
        cache,
        evidenceContextVersion:
          input.evidenceContextVersion ?? evidence.contextVersion ?? options.evidenceContextVersion ?? 'unversioned',
        fallbackAttempts: options.fallbackAttempts,
        onProgress: (p) => options.heartbeat?.(p),
      });
      options.log?.(
        `judged ${input.submission.id ?? input.submission.dir}: ${run.stats.judged} judged, ${run.stats.byCheck} by check, ${run.stats.reused} reused, ${run.stats.unjudged} unjudged, ${run.stats.modelCalls} model calls`,
      );
      return { verdicts: run.verdicts, sessions: run.sessions, identity: run.identity, cost: judgeCost(run) };
    },
  };
}

export type JudgeActivities = ReturnType<typeof createJudgeActivities>;
