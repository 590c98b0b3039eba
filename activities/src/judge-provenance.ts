// What a record's provenance says about its judge: the setup the unit ran with (digested, so two records can be
// told apart by judge without comparing settings field by field) and the models the provider named in the
// replies that decided the verdicts, as each judge verdict's metadata carries them.
import { createHash } from 'node:crypto';
import { canonicalJson } from '@assay/benchmark';
import type { JobSpec, JudgeProvenance, Provenance } from '@assay/core';

/** The part of a task verdict or a criterion verdict that says who decided it. */
export interface DecidedBy {
  decision: string;
  source: string;
  judge?: Record<string, unknown> | undefined;
}

export function judgeProvenanceOf(setup: JobSpec['judge'], verdicts: readonly DecidedBy[]): JudgeProvenance {
  const checksOnly = setup.mode === 'checks-only';
  // Verdicts the judge decided; those it left unjudged still name its prompt.
  const metas = checksOnly ? [] : verdicts.flatMap((v) => (v.judge ? [{ v, meta: v.judge }] : []));
  const promptVersion = metas.map(({ meta }) => meta.promptVersion).find((p): p is string => typeof p === 'string');
  const reported = metas.flatMap(({ v, meta }) =>
    v.source === 'judge' && v.decision !== 'unjudged' && typeof meta.reportedModel === 'string'
      ? [meta.reportedModel]
      : [],
  );
  return {
    setupDigest: createHash('sha256').update(canonicalJson(setup)).digest('hex'),
    mode: setup.mode,
    provider: checksOnly ? null : (setup.provider ?? null),
    model: checksOnly ? null : (setup.model ?? null),
    promptVersion: promptVersion ?? null,
    reportedModels: [...new Set(reported)].sort(),
    // Only OpenAI-compatible APIs take a seed; the others are sent none whatever the setup says.
    seed: !checksOnly && setup.provider === 'openai' ? (setup.seed ?? null) : null,
  };
}

/** A re-judged record's provenance: the judge that re-judged it replaces the original's (none given: none named). */
export function withJudge(provenance: Provenance, judge: JudgeProvenance | undefined): Provenance {
  const { judge: _original, ...rest } = provenance;
  return judge ? { ...rest, judge } : rest;
}
