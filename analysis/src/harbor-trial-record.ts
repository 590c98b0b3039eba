// One trial of a Harbor job folder as the TrialRecord assay's analysis reads: the verifier's rewards scored as
// assay scores its own Harbor runs (core's scoredRewardOf, 0–100), the agent's timings, tokens and cost. A trial
// that raised keeps its exception as the agent's reason and a status that says so; its reward counts only where
// Harbor's error policy says it is still a valid measurement (harbor.models.trial.error_policy: the agent ran out
// of budget or refused), else it has no score (null, never 0).
import {
  HARBOR_DOMAIN,
  scoredRewardOf,
  SUCCESS_THRESHOLD,
  TRIAL_RECORD_SCHEMA,
  trialRecordSchema,
  type Score,
  type TrialRecord,
  type TrialStatus,
  type Usage,
} from '@assay/core';
import type { HarborExceptionInfo, HarborTrialResult } from './harbor-job-schema.js';
import { harborSecondsOf as secondsOf, harborStepRecords, type HarborRewardFile } from './harbor-step-records.js';

/** Exception types whose reward Harbor still counts (FailureCause AGENT_EXHAUSTED_BUDGET, AGENT_REFUSED_TASK). */
const REWARD_VALID = new Set([
  'AgentTimeoutError',
  'ContextWindowExceededError',
  'OutputTokenExceededError',
  'ContextLengthExceededError',
  'OutputLengthExceededError',
  'AgentSafetyRefusalError',
  'ContentPolicyViolationError',
]);

/** Exception types Harbor blames on the sandbox, itself, the verifier or a cancel: not the agent's doing. */
const INFRA = new Set([
  'EnvironmentStartTimeoutError',
  'SandboxBuildFailedError',
  'AgentSetupTimeoutError',
  'HealthcheckError',
  'SandboxLikelyOutOfMemoryError',
  'MemoryLimitExceededError',
  'SSHAccessError',
  'GKEExecStreamClosedError',
  'GKEPodNotFoundError',
  'RuntimeRequestError',
  'AddTestsDirError',
  'DownloadVerifierDirError',
  'ServiceOperationsUnsupportedError',
  'VercelScopeError',
  'DspyImportError',
  'MissingExtraError',
  'RegradeError',
  'VerifierTimeoutError',
  'RewardFileNotFoundError',
  'RewardFileEmptyError',
  'VerifierOutputParseError',
  'CancelledError',
]);

export interface HarborTrialInput {
  jobId: string;
  result: HarborTrialResult;
  /** Its number among the trials of the same system and task (1-based, in order of start). */
  trial: number;
  /** Which reward file the verifier left in the trial's verifier/ folder. */
  rewardFile: HarborRewardFile;
  /** A multi-step trial's steps' reward files (steps/<name>/verifier/), in step order. */
  stepRewardFiles?: HarborRewardFile[];
}

/** The system a Harbor trial belongs to: Harbor's eval key without the dataset (`agent__model`). */
export function harborSystemOf(r: HarborTrialResult): TrialRecord['system'] {
  const model = r.agent_info.model_info ?? null;
  const id = model ? `${r.agent_info.name}__${model.name}` : r.agent_info.name;
  return {
    // Slashes would split the viewer's URLs and the results keys.
    id: id.replaceAll('/', '_'),
    harness: r.agent_info.name,
    model: model ? (model.provider ? `${model.provider}/${model.name}` : model.name) : null,
  };
}

/**
 * The exception that decides a trial's outcome, as Harbor's TrialResult.failure_cause takes it: the trial's own,
 * else the first step's (a multi-step trial records handled failures on the step).
 */
export function harborExceptionOf(r: HarborTrialResult): HarborExceptionInfo | null {
  return r.exception_info ?? r.step_results?.find((s) => s.exception_info)?.exception_info ?? null;
}

export function harborTrialRecord(input: HarborTrialInput): TrialRecord {
  const r = input.result;
  const exception = harborExceptionOf(r);
  const stepped = harborStepRecords(r, input.stepRewardFiles ?? []);
  const verifier = verifierOf(r, input.rewardFile);
  if (stepped) {
    // A multi-step trial has no trial-level agent or verifier phase: its steps' make them up.
    verifier.file = stepped.steps.at(-1)?.verifier.file ?? null;
    verifier.durationSeconds = stepped.steps.reduce((sum, st) => sum + st.verifier.durationSeconds, 0);
  }
  const agentTime = r.agent_execution ?? {
    started_at: r.step_results?.[0]?.agent_execution?.started_at ?? r.started_at,
    finished_at: r.step_results?.at(-1)?.agent_execution?.finished_at ?? r.finished_at,
  };
  const agentSeconds = stepped
    ? stepped.steps.reduce((sum, st) => sum + st.agent.durationSeconds, 0)
    : (secondsOf(agentTime) ?? 0);
  return trialRecordSchema.parse({
    schema: TRIAL_RECORD_SCHEMA,
    jobId: input.jobId,
    benchmark: { id: r.source ?? 'adhoc', version: 'harbor-job' },
    system: harborSystemOf(r),
    task: { id: r.task_name, domain: HARBOR_DOMAIN, formatRequired: false },
    trial: input.trial,
    status: statusOf(exception?.exception_type ?? null),
    agent: {
      exitCode: null,
      timedOut: exception?.exception_type === 'AgentTimeoutError',
      reason: exception ? `${exception.exception_type}: ${exception.exception_message}` : null,
      startedAt: agentTime.started_at ?? r.started_at ?? '',
      endedAt: agentTime.finished_at ?? r.finished_at ?? '',
      durationSeconds: agentSeconds,
      containerAttempts: 1,
    },
    usage: usageOf(r),
    deliverables: [],
    formatCompliance: { required: false, compliant: true, missing: [], wrongType: [] },
    verdicts: [],
    score: scoreOf(verifier.reward),
    verifier,
    ...(stepped ? { steps: stepped.steps, multiStep: stepped.multiStep } : {}),
    recordedAt: r.finished_at ?? r.started_at ?? '',
  });
}

function statusOf(exceptionType: string | null): TrialStatus {
  if (exceptionType === null) return 'completed';
  if (exceptionType === 'AgentTimeoutError') return 'agent-timeout';
  return INFRA.has(exceptionType) ? 'infra-failed' : 'agent-failed';
}

function verifierOf(r: HarborTrialResult, file: HarborTrialInput['rewardFile']): NonNullable<TrialRecord['verifier']> {
  const rewards = r.verifier_result?.rewards ?? {};
  const base = { rewards, file, exitCode: null, timedOut: false, durationSeconds: secondsOf(r.verifier) ?? 0 };
  // TrialResult.reward_valid: every exception the trial recorded must leave the reward valid.
  const types = [r.exception_info, ...(r.step_results ?? []).map((s) => s.exception_info)].flatMap((e) =>
    e ? [e.exception_type] : [],
  );
  const invalid = types.find((t) => !REWARD_VALID.has(t));
  if (invalid !== undefined) {
    const reason = `the trial raised ${invalid}; Harbor does not count a reward after it`;
    return { ...base, rewardKey: null, reward: null, reason };
  }
  const scored = scoredRewardOf(rewards);
  const reason = scored.reward === null ? 'the verifier wrote no reward' : null;
  return { ...base, ...scored, reason };
}

/** As assay scores its own Harbor runs (activities' scoreOfReward): the reward in 0–1 as 0–100; none: null. */
function scoreOf(reward: number | null): Score {
  if (reward === null) return { value: null, decided: null, coverage: 0, success: null, source: 'verifier' };
  const value = Math.min(1, Math.max(0, reward)) * 100;
  return { value, decided: value, coverage: 1, success: value >= SUCCESS_THRESHOLD, source: 'verifier' };
}

/**
 * AgentContext's totals, summed over the steps of a multi-step trial (TrialResult.compute_token_cost_totals);
 * n_input_tokens includes the cached ones, as assay's inputTokens does. Nothing reported: null.
 */
function usageOf(r: HarborTrialResult): Usage | null {
  const contexts = r.agent_result
    ? [r.agent_result]
    : (r.step_results ?? []).flatMap((s) => (s.agent_result ? [s.agent_result] : []));
  const sum = (pick: (c: (typeof contexts)[number]) => number | null | undefined): number | null =>
    contexts.reduce<number | null>((acc, c) => (pick(c) == null ? acc : (acc ?? 0) + (pick(c) ?? 0)), null);
  const [input, output, cached, cost] = [
    sum((c) => c.n_input_tokens),
    sum((c) => c.n_output_tokens),
    sum((c) => c.n_cache_tokens),
    sum((c) => c.cost_usd),
  ];
  if (input === null && output === null && cost === null) return null;
  return {
    inputTokens: input ?? 0,
    outputTokens: output ?? 0,
    cachedInputTokens: cached ?? 0,
    costUsd: cost,
    turns: null,
  };
}
