// The judge in a record's provenance: its setup digested, the models the provider named in the replies that
// decided its verdicts, and a re-judged record naming the judge that re-judged it.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { canonicalJson, loadBenchmark } from '@assay/benchmark';
import {
  judgeSetupSchema,
  scoreTask,
  trialRecordSchema,
  type JobSpec,
  type TrialInput,
  type TrialRecord,
  type Verdict,
} from '@assay/core';
import { assembleTrialRecord } from '../src/assemble-trial-record.js';
import { judgeProvenanceOf, withJudge } from '../src/judge-provenance.js';
import { withEvaluation } from '../src/task-evaluation.js';

const batched = judgeSetupSchema.parse({
  mode: 'batched',
  provider: 'openai',
  model: 'judge-model',
  apiKeyEnv: 'JUDGE_KEY',
  seed: 7,
});
const identity = { provider: 'openai', model: 'judge-model', promptVersion: 'assay-judge/1', mode: 'batched' };

/** A verdict as a task record keeps it; `judge` is the metadata the judge (or a check) left. */
function verdict(itemId: string, over: Partial<Verdict>): Verdict {
  return {
    itemId,
    importance: 'core',
    dimension: 'structure-completeness',
    weight: 5,
    decision: 'satisfied',
    source: 'judge',
    reason: 'ok',
    ...over,
  };
}

const verdicts: Verdict[] = [
  verdict('a', { judge: { ...identity, reused: false, reportedModel: 'judge-model-2025-01-01' } }),
  verdict('b', { judge: { ...identity, reused: false, reportedModel: 'judge-model-2025-02-02' } }),
  verdict('c', { judge: { ...identity, reused: false, reportedModel: 'judge-model-2025-01-01' } }),
  // Reused from the verdict cache: counted when the entry kept the model, not when it predates it.
  verdict('d', { judge: { ...identity, reused: true, reportedModel: 'judge-model-2024-12-12' } }),
  verdict('e', { judge: { ...identity, reused: true } }),
  // Decided by a check, left unjudged by the judge, or by nobody: nothing to count.
  verdict('f', { source: 'check', judge: { evidence: ['memo.md line 3'] } }),
  verdict('g', { decision: 'unjudged', source: 'none', judge: { ...identity, unjudgedReason: 'malformed' } }),
  verdict('h', { decision: 'unjudged', source: 'none' }),
  // The provider named no model in its reply.
  verdict('i', { judge: { ...identity, reused: false, reportedModel: null } }),
];

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('judgeProvenanceOf', () => {
  it('names the setup and the distinct models the provider reported for the verdicts the judge decided', () => {
    expect(judgeProvenanceOf(batched, verdicts)).toEqual({
      setupDigest: sha256(canonicalJson(batched)),
      mode: 'batched',
      provider: 'openai',
      model: 'judge-model',
      promptVersion: 'assay-judge/1',
      reportedModels: ['judge-model-2024-12-12', 'judge-model-2025-01-01', 'judge-model-2025-02-02'],
      seed: 7,
    });
    // Anthropic's API takes no seed: none was sent, whatever the setup says.
    expect(judgeProvenanceOf({ ...batched, provider: 'anthropic' }, verdicts).seed).toBeNull();
  });

  it('counts criterion verdicts of a project alike, and none reused from an earlier checkpoint', () => {
    const criteria = [
      { decision: 'satisfied', source: 'judge', judge: { ...identity, reportedModel: 'm-1' } },
      { decision: 'satisfied', source: 'reused' },
      { decision: 'not-satisfied', source: 'check' },
    ];
    expect(judgeProvenanceOf(batched, criteria).reportedModels).toEqual(['m-1']);
  });

  it('checks-only: no provider, model, prompt or reported model, whatever the setup names', () => {
    const checksOnly = judgeSetupSchema.parse({ mode: 'checks-only', provider: 'anthropic', model: 'claude-judge' });
    expect(judgeProvenanceOf(checksOnly, verdicts)).toEqual({
      setupDigest: sha256(canonicalJson(checksOnly)),
      mode: 'checks-only',
      provider: null,
      model: null,
      promptVersion: null,
      reportedModels: [],
      seed: null,
    });
  });

  it('a judge that decided nothing reports no model, and no prompt when nothing reached it', () => {
    const checked = [verdict('f', { source: 'check', judge: { evidence: [] } })];
    expect(judgeProvenanceOf(batched, checked)).toMatchObject({ promptVersion: null, reportedModels: [] });
  });

  it('digests the setup by content: key order does not matter, any setting does, and only key names are in it', () => {
    const reordered = Object.fromEntries(Object.entries(batched).reverse()) as JobSpec['judge'];
    const digest = judgeProvenanceOf(batched, []).setupDigest;
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(judgeProvenanceOf(reordered, []).setupDigest).toBe(digest);
    expect(judgeProvenanceOf({ ...batched, temperature: 0.2 }, []).setupDigest).not.toBe(digest);
    expect(canonicalJson(batched)).toContain('"apiKeyEnv":"JUDGE_KEY"');
  });
});

const unit = { digest: 'd1', parts: { request: 'r1' } };
const original = judgeProvenanceOf(batched, verdicts);

function stored(over: Partial<TrialRecord> = {}): TrialRecord {
  return trialRecordSchema.parse({
    schema: 'assay.trial-record/v1',
    jobId: 'j',
    benchmark: { id: 'b', version: '1' },
    system: { id: 's', harness: 'scripted', model: null },
    task: { id: 't', domain: 'finance', formatRequired: false },
    trial: 1,
    status: 'completed',
    agent: {
      exitCode: 0,
      timedOut: false,
      reason: null,
      startedAt: '2026-01-01T00:00:00Z',
      endedAt: '2026-01-01T00:10:00Z',
      durationSeconds: 600,
      containerAttempts: 1,
    },
    usage: null,
    deliverables: [],
    formatCompliance: { required: false, compliant: true, missing: [], wrongType: [] },
    verdicts,
    score: scoreTask(verdicts),
    provenance: { unit, agentImage: 'sha256:abc', judge: original },
    recordedAt: '2026-01-01T00:10:00Z',
    ...over,
  });
}

describe('a re-judged record', () => {
  const formatCompliance = { required: false, compliant: true, missing: [], wrongType: [] };
  const anthropic = judgeSetupSchema.parse({ mode: 'per-item', provider: 'anthropic', model: 'claude-judge' });
  const again = [verdict('a', { judge: { ...identity, provider: 'anthropic', reportedModel: 'claude-judge-9' } })];

  it('names the judge that re-judged it, not the original', () => {
    const judge = judgeProvenanceOf(anthropic, again);
    const r = withEvaluation(stored(), { verdicts: again, formatCompliance, judge });
    expect(r.provenance).toEqual({ unit, agentImage: 'sha256:abc', judge });
    expect(r.provenance?.judge?.reportedModels).toEqual(['claude-judge-9']);
    expect(trialRecordSchema.parse(r)).toEqual(r);
  });

  it('names no judge rather than the original when the evaluation does not say which', () => {
    expect(withEvaluation(stored(), { verdicts: again, formatCompliance }).provenance).toEqual({
      unit,
      agentImage: 'sha256:abc',
    });
  });

  it('a record from before provenance stays without one', () => {
    const old = stored({ provenance: undefined });
    const judge = judgeProvenanceOf(anthropic, again);
    expect(withEvaluation(old, { verdicts: again, formatCompliance, judge }).provenance).toBeUndefined();
  });

  it('withJudge replaces the judge and keeps the rest', () => {
    const judge = judgeProvenanceOf(anthropic, again);
    expect(withJudge({ unit, models: ['x'], judge: original }, judge)).toEqual({ unit, models: ['x'], judge });
  });

  it('old records without a judge still parse', () => {
    expect(trialRecordSchema.parse(stored({ provenance: { unit } })).provenance).toEqual({ unit });
  });
});

describe('assembleTrialRecord', () => {
  const SAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../datasets/sample');
  const task = loadBenchmark(SAMPLE).tasks.find((t) => t.spec.id === 'fin-term-loan-schedule');
  if (!task) throw new Error('no sample task fin-term-loan-schedule');
  const run = {
    exitCode: 0,
    timedOut: false,
    reason: null,
    startedAt: '2026-01-01T00:00:00Z',
    endedAt: '2026-01-01T00:10:00Z',
    durationSeconds: 600,
    containerAttempts: 1,
    usage: null,
  };
  const trial = {
    jobId: 'j',
    benchmark: { id: 'sample', version: '1', root: SAMPLE },
    system: { id: 's', harness: 'scripted', settings: {} },
    trial: 1,
    judge: batched,
    taskId: task.spec.id,
  } as unknown as TrialInput;
  const formatCompliance = { required: true, compliant: true, missing: [], wrongType: [] };

  it("names the trial's judge setup and the models reported for its verdicts", () => {
    const r = assembleTrialRecord({
      trial,
      task,
      run,
      deliverables: [],
      evaluation: { verdicts, formatCompliance },
      storage: undefined,
    });
    expect(r.provenance?.judge).toEqual(original);
  });

  it('names no judge for a trial a verifier scored', () => {
    const verifier = {
      rewards: { reward: 1 },
      rewardKey: 'reward',
      reward: 1,
      file: 'reward.txt' as const,
      exitCode: 0,
      timedOut: false,
      durationSeconds: 1,
      reason: null,
    };
    const r = assembleTrialRecord({
      trial,
      task,
      run,
      deliverables: [],
      evaluation: { verdicts: [], formatCompliance, verifier },
      storage: undefined,
    });
    expect(r.provenance).not.toHaveProperty('judge');
  });
});
