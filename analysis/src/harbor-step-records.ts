// The steps of a Harbor multi-step trial (TrialResult.step_results, harbor/trial/multi_step.py) as the steps of
// assay's own multi-step Harbor records (core's HarborStepRecord): each step's rewards, score, agent and verifier
// timings and exception, and why the trial stopped after its last step. The trial's own rewards stay Harbor's
// aggregate (its verifier_result); result.json does not say by which multi_step_reward_strategy, so the strategy
// shown is the one whose aggregate of the steps equals the trial's rewards (`mean`, Harbor's default, when both
// or neither do).
import {
  aggregateStepRewards,
  rewardScoreOf,
  scoredRewardOf,
  type HarborStepRecord,
  type HarborStepStrategy,
  type HarborVerifierRun,
  type TrialRecord,
} from '@assay/core';
import type { HarborTiming, HarborTrialResult } from './harbor-job-schema.js';

type HarborStepResult = NonNullable<HarborTrialResult['step_results']>[number];
export type HarborRewardFile = 'reward.json' | 'reward.txt' | null;

export interface HarborStepsRead {
  steps: HarborStepRecord[];
  multiStep: NonNullable<TrialRecord['multiStep']>;
  /** Whether the trial's rewards equal that strategy's aggregate of the steps' (false: neither does). */
  strategyMatches: boolean;
}

/** A multi-step trial's steps; null for a single-step trial. `rewardFiles[i]`: step i's verifier/ reward file. */
export function harborStepRecords(r: HarborTrialResult, rewardFiles: HarborRewardFile[]): HarborStepsRead | null {
  const results = r.step_results ?? [];
  if (results.length === 0) return null;
  const steps = results.map((s, i) => stepRecordOf(s, rewardFiles[i] ?? null, i === results.length - 1));
  const trial = r.verifier_result?.rewards ?? null;
  const runs = steps.map((s) => s.verifier);
  const matches = (strategy: HarborStepStrategy) => sameRewards(aggregateStepRewards(runs, strategy), trial);
  const strategy: HarborStepStrategy = matches('final') && !matches('mean') ? 'final' : 'mean';
  return {
    steps,
    multiStep: { strategy, declared: results.map((s) => s.step_name) },
    strategyMatches: matches(strategy),
  };
}

function stepRecordOf(s: HarborStepResult, file: HarborRewardFile, last: boolean): HarborStepRecord {
  const e = s.exception_info ?? null;
  const rewards = s.verifier_result?.rewards ?? {};
  const scored = scoredRewardOf(rewards);
  const verifier: HarborVerifierRun = {
    rewards,
    ...scored,
    file,
    exitCode: null,
    timedOut: e?.exception_type === 'VerifierTimeoutError',
    durationSeconds: harborSecondsOf(s.verifier) ?? 0,
    reason: scored.reward === null ? (s.verifier_result ? 'the verifier wrote no reward' : 'no verifier ran') : null,
  };
  return {
    name: s.step_name,
    score: rewardScoreOf(scored.reward),
    source: 'verifier',
    agent: {
      exitCode: null,
      timedOut: e?.exception_type === 'AgentTimeoutError',
      reason: e ? `${e.exception_type}: ${e.exception_message}` : null,
      startedAt: s.agent_execution?.started_at ?? '',
      endedAt: s.agent_execution?.finished_at ?? '',
      durationSeconds: harborSecondsOf(s.agent_execution) ?? 0,
      containerAttempts: 1,
      restarted: false,
    },
    verifier,
    aborted: last ? abortOf(s) : null,
  };
}

/**
 * Harbor stops after a step that raised and has no verifier result (MultiStepTrial._should_stop_after_step); a
 * step whose agent never ran failed in its setup.sh or healthcheck. A min_reward stop is not in result.json.
 */
function abortOf(s: HarborStepResult): HarborStepRecord['aborted'] {
  const e = s.exception_info;
  if (!e || s.verifier_result) return null;
  const reason = `${e.exception_type}: ${e.exception_message}`;
  return { by: s.agent_execution ? 'no-verifier-result' : 'setup', reason };
}

function sameRewards(a: Record<string, number> | null, b: Record<string, number> | null): boolean {
  if (a === null || b === null) return a === b;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => b[k] !== undefined && Math.abs((a[k] ?? 0) - b[k]) < 1e-9);
}

export function harborSecondsOf(t: HarborTiming | null | undefined): number | null {
  if (!t?.started_at || !t.finished_at) return null;
  const ms = Date.parse(t.finished_at) - Date.parse(t.started_at);
  return Number.isFinite(ms) ? Math.max(0, ms / 1000) : null;
}
