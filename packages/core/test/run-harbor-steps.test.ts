// Harbor's multi-step trial loop over step runners that record what they are asked: steps in order, each
// step's agent then its verifier, min_reward ending the trial, a failed workdir/setup.sh ending it without
// its verifier, and the aggregate the record gets.
import { describe, expect, it } from 'vitest';
import {
  runHarborSteps,
  type HarborStepsPlan,
  type HarborVerifierRun,
  type StepAgentRun,
  type StepRunners,
} from '../src/index.js';

const verifierRun = (rewards: Record<string, number>): HarborVerifierRun => ({
  rewards,
  rewardKey: 'reward' in rewards ? 'reward' : null,
  reward: rewards.reward ?? null,
  file: 'reward.json',
  exitCode: 0,
  timedOut: false,
  durationSeconds: 1,
  reason: null,
});

const agentRun = (over: Partial<StepAgentRun> = {}): StepAgentRun => ({
  exitCode: 0,
  timedOut: false,
  reason: null,
  startedAt: '2026-12-05T00:00:00.000Z',
  endedAt: '2026-12-05T00:00:01.000Z',
  durationSeconds: 1,
  containerAttempts: 1,
  usage: null,
  ...over,
});

const plan = (strategy: HarborStepsPlan['strategy'], gate: HarborStepsPlan['steps'][number]['minReward'] = null) => ({
  strategy,
  steps: [
    { name: 'a', minReward: null },
    { name: 'b', minReward: gate },
    { name: 'c', minReward: null },
  ],
});

/** Runners answering from tables, and the calls they were asked in order. */
function runnersOf(agents: (i: number) => StepAgentRun, rewards: (i: number) => Record<string, number>) {
  const calls: string[] = [];
  const runners: StepRunners<{ verifier: HarborVerifierRun }> = {
    agent: async (i) => {
      calls.push(`agent ${i}`);
      return agents(i);
    },
    verifier: async (i) => {
      calls.push(`verifier ${i}`);
      return { verifier: verifierRun(rewards(i)) };
    },
    onSetupFailure: () => calls.push('setup failed'),
  };
  return { calls, runners };
}

describe('runHarborSteps', () => {
  it('runs the steps in order, stops at a missed min_reward, and aggregates the steps that ran (mean)', async () => {
    const rewards = [{ reward: 1, style: 1 }, { reward: 0.2 }];
    const { calls, runners } = runnersOf(
      () => agentRun(),
      (i) => rewards[i - 1] ?? {},
    );
    const out = await runHarborSteps(plan('mean', { reward: 0.5 }), runners);
    expect(calls).toEqual(['agent 1', 'verifier 1', 'agent 2', 'verifier 2']);
    expect(out.verifier).toMatchObject({ rewards: { reward: 0.6, style: 0.5 }, rewardKey: 'reward', reward: 0.6 });
    expect(out.steps).toMatchObject([
      { name: 'a', score: 100, aborted: null },
      { name: 'b', score: 20, aborted: { by: 'min_reward', reason: 'reward=0.2 below min_reward 0.5' } },
    ]);
    expect(out.run).toMatchObject({ exitCode: 0, durationSeconds: 2, containerAttempts: 1 });
  });

  it("ends the trial at a step whose workdir/setup.sh failed: no verifier for it, Harbor's reward rules", async () => {
    const reason = "Step 'b' setup.sh exited with code 3: no data";
    const setupFailed = agentRun({
      exitCode: null,
      reason: `not run: ${reason}`,
      durationSeconds: 0,
      setup: { exitCode: 3, timedOut: false, durationSeconds: 0.5, reason },
    });
    const run = (strategy: HarborStepsPlan['strategy'], failAt: number) => {
      const r = runnersOf(
        (i) => (i === failAt ? setupFailed : agentRun()),
        () => ({ reward: 0.8 }),
      );
      return runHarborSteps(plan(strategy), r.runners).then((out) => ({ ...out, calls: r.calls }));
    };
    const notRun = { rewards: {}, reward: null, exitCode: null, reason: `not run: ${reason}` };
    // Step 2's setup fails: step 1 verified, step 2's verifier and step 3 never run; the mean leaves step 2 out.
    const mean = await run('mean', 2);
    expect(mean.calls).toEqual(['agent 1', 'verifier 1', 'agent 2', 'setup failed']);
    expect(mean.verifier).toMatchObject({ rewards: { reward: 0.8 }, reward: 0.8 });
    expect(mean.steps).toMatchObject([
      { name: 'a', score: 80, aborted: null },
      { name: 'b', score: null, verifier: notRun, setup: setupFailed.setup, aborted: { by: 'setup', reason } },
    ]);
    expect(mean.run).toMatchObject({ exitCode: null, reason: `not run: ${reason}` });
    // final: the last step that ran has no verifier result, so the trial has no reward (Harbor's None).
    expect((await run('final', 2)).verifier).toMatchObject({ rewards: {}, reward: null });
    // Step 1's setup fails: nothing was verified at all.
    const first = await run('mean', 1);
    expect(first.calls).toEqual(['agent 1', 'setup failed']);
    expect(first.last).toBeNull();
    expect(first.verifier).toMatchObject({ rewards: {}, reward: null });
    expect(first.steps).toMatchObject([{ name: 'a', aborted: { by: 'setup', reason } }]);
  });

  it('stops after a step whose verifier wrote no reward, and sums usage only when every step counted it', async () => {
    const usage = { inputTokens: 10, outputTokens: 2, cachedInputTokens: 0, costUsd: 0.5, turns: 1 };
    const { calls, runners } = runnersOf(
      () => agentRun({ usage }),
      (i): Record<string, number> => (i === 2 ? {} : { reward: 1 }),
    );
    const out = await runHarborSteps(plan('mean'), runners);
    expect(calls).toEqual(['agent 1', 'verifier 1', 'agent 2', 'verifier 2']);
    expect(out.steps[1]?.aborted).toEqual({ by: 'no-verifier-result', reason: 'the verifier wrote no reward' });
    expect(out.run.usage).toEqual({ inputTokens: 20, outputTokens: 4, cachedInputTokens: 0, costUsd: 1, turns: 2 });
  });
});
