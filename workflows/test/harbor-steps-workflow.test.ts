// The trial workflow's step loop for multi-step Harbor tasks, over stub activities on a time-skipping server:
// steps in order, each step's agent then its verifier, min_reward ending the trial, the aggregate handed to the
// record. And replay: today's histories replay, and so do those the release before the workflows last changed
// recorded of the same trials (commit a0700dc, in fixtures/, cut with support/keep-history.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { historyFromJSON, historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { DefaultLogger, Worker, bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HarborVerifierRun, TrialInput } from '@assay/core';
import { trialWorkflowId } from '@assay/workflows/definitions';
import { agentRun, resultOf, trialInput, trialStubs } from './support/stub-activities.js';
import { keepHistory } from './support/keep-history.js';
import { startWorkflowTestEnv, type Stubs, type WorkflowTestEnv } from './support/workflow-test-env.js';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name: string) => readFileSync(path.join(here, `fixtures/${name}-a0700dc.json`), 'utf8');

let t: WorkflowTestEnv;
let bundle: WorkflowBundle;
beforeAll(async () => {
  [t, bundle] = await Promise.all([
    startWorkflowTestEnv(),
    bundleWorkflowCode({ workflowsPath: require.resolve('@assay/workflows'), logger: new DefaultLogger('WARN') }),
  ]);
}, 300_000);
afterAll(async () => {
  await t?.teardown();
});

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

const harborTrial = (taskId: string): TrialInput =>
  trialInput({ jobId: 'steps', taskId, benchmark: { id: 'ds', version: 'local', root: 'harbor:/ds' } });

/** Runs one trial on `workflowBundle` with these stubs; its history as JSON. */
async function recordTrial(workflowBundle: WorkflowBundle, input: TrialInput, stubs: Stubs): Promise<string> {
  const taskQueue = `steps-${process.pid}-${input.taskId}-${Date.now()}`;
  const worker = await Worker.create({
    connection: t.env.nativeConnection,
    namespace: t.env.namespace ?? 'default',
    taskQueue,
    workflowBundle,
    activities: stubs,
  });
  return worker.runUntil(async () => {
    const handle = await t.client.workflow.start('trialWorkflow', {
      taskQueue,
      workflowId: trialWorkflowId(input.jobId, `${input.system.id}/${input.taskId}/1`),
      args: [input],
    });
    await handle.result();
    return historyToJSON(await handle.fetchHistory());
  });
}

const replay = (json: string, input: TrialInput) =>
  Worker.runReplayHistory(
    { workflowBundle: bundle },
    historyFromJSON(JSON.parse(json)),
    trialWorkflowId(input.jobId, `${input.system.id}/${input.taskId}/1`),
  );

describe('multi-step Harbor trials in the trial workflow', () => {
  it('runs the steps in order, stops at a missed min_reward, and records the mean of the steps that ran', async () => {
    const calls: string[] = [];
    const recorded: unknown[] = [];
    const rewards: Record<string, number>[] = [{ reward: 1, style: 1 }, { reward: 0.2 }];
    const stubs: Stubs = {
      ...trialStubs([]),
      prepareWorkspace: async () => ({
        workspace: '/w',
        instructionDir: '/i',
        harborSteps: {
          strategy: 'mean',
          steps: [
            { name: 'a', minReward: null },
            { name: 'b', minReward: { reward: 0.5 } },
            { name: 'c', minReward: null },
          ],
        },
      }),
      runAgent: async ({ step }) => {
        calls.push(`agent ${step}`);
        return agentRun();
      },
      evaluateTrial: async ({ step }) => {
        calls.push(`verifier ${step}`);
        return resultOf('evaluateTrial', { verdicts: [], verifier: verifierRun(rewards[(step ?? 1) - 1] ?? {}) });
      },
      recordTrial: async (args) => {
        recorded.push(args.evaluation);
        return trialStubs([]).recordTrial(args);
      },
    };
    const input = harborTrial('stepped');
    const json = await recordTrial(bundle, input, stubs);
    keepHistory('harbor-steps-history', json);
    expect(calls).toEqual(['agent 1', 'verifier 1', 'agent 2', 'verifier 2']);
    expect(recorded[0]).toMatchObject({
      verifier: { rewards: { reward: 0.6, style: 0.5 }, rewardKey: 'reward', reward: 0.6 },
      steps: [
        { name: 'a', score: 100, aborted: null },
        { name: 'b', score: 20, aborted: { by: 'min_reward', reason: 'reward=0.2 below min_reward 0.5' } },
      ],
    });
    expect(json).toContain('EVENT_TYPE_MARKER_RECORDED'); // the patch
    await expect(replay(json, input)).resolves.toBeUndefined();
  }, 120_000);

  it("ends the trial at a step whose workdir/setup.sh failed: no verifier for it, Harbor's reward rules", async () => {
    const reason = "Step 'b' setup.sh exited with code 3: no data";
    const setupFailed = {
      ...agentRun(),
      exitCode: null,
      reason: `not run: ${reason}`,
      durationSeconds: 0,
      setup: { exitCode: 3, timedOut: false, durationSeconds: 0.5, reason },
    };
    const ok = { ...agentRun(), setup: { exitCode: 0, timedOut: false, durationSeconds: 0.5, reason: null } };
    /** A trial of two steps (b's setup fails when `failAt` is 2, a's when 1) under `strategy`. */
    const run = async (taskId: string, strategy: 'mean' | 'final', failAt: number) => {
      const calls: string[] = [];
      const recorded: unknown[] = [];
      const stubs: Stubs = {
        ...trialStubs([]),
        prepareWorkspace: async () => ({
          workspace: '/w',
          instructionDir: '/i',
          harborSteps: {
            strategy,
            steps: [
              { name: 'a', minReward: null },
              { name: 'b', minReward: null },
              { name: 'c', minReward: null },
            ],
          },
        }),
        runAgent: async ({ step }) => {
          calls.push(`agent ${step}`);
          return step === failAt ? setupFailed : step === 1 ? agentRun() : ok;
        },
        evaluateTrial: async ({ step }) => {
          calls.push(`verifier ${step}`);
          return resultOf('evaluateTrial', { verdicts: [], verifier: verifierRun({ reward: 0.8 }) });
        },
        recordTrial: async (args) => {
          recorded.push(args);
          return trialStubs([]).recordTrial(args);
        },
      };
      const input = harborTrial(taskId);
      const json = await recordTrial(bundle, input, stubs);
      keepHistory(`harbor-${taskId}-history`, json);
      await expect(replay(json, input)).resolves.toBeUndefined();
      return { calls, recorded: recorded[0] as { run: unknown; evaluation: Record<string, unknown> } };
    };

    const notRun = { rewards: {}, reward: null, exitCode: null, reason: `not run: ${reason}` };
    // Step 2's setup fails: step 1 verified, step 2's verifier and step 3 never run; the mean leaves step 2 out.
    const mean = await run('setup-mean', 'mean', 2);
    expect(mean.calls).toEqual(['agent 1', 'verifier 1', 'agent 2']);
    expect(mean.recorded.evaluation).toMatchObject({
      verifier: { rewards: { reward: 0.8 }, reward: 0.8 },
      steps: [
        { name: 'a', score: 80, aborted: null },
        { name: 'b', score: null, verifier: notRun, setup: setupFailed.setup, aborted: { by: 'setup', reason } },
      ],
    });
    expect(mean.recorded.run).toMatchObject({ exitCode: null, reason: `not run: ${reason}` });
    // final: the last step that ran has no verifier result, so the trial has no reward (Harbor's None).
    const final = await run('setup-final', 'final', 2);
    expect(final.recorded.evaluation).toMatchObject({ verifier: { rewards: {}, reward: null } });
    // Step 1's setup fails: nothing was verified at all; the record still gets its (empty) evaluation.
    const first = await run('setup-first', 'mean', 1);
    expect(first.calls).toEqual(['agent 1']);
    expect(first.recorded.evaluation).toMatchObject({
      verdicts: [],
      formatCompliance: { required: false, compliant: true },
      verifier: { rewards: {}, reward: null },
      steps: [{ name: 'a', aborted: { by: 'setup', reason } }],
    });
  }, 180_000);

  it('replays the multi-step histories of the release before (a0700dc: patched() markers, now deprecated)', async () => {
    for (const [name, taskId] of [
      ['harbor-steps-history', 'stepped'],
      ['harbor-setup-mean-history', 'setup-mean'],
    ] as const) {
      const json = fixture(name);
      expect(json).toContain('EVENT_TYPE_MARKER_RECORDED');
      await expect(replay(json, harborTrial(taskId))).resolves.toBeUndefined();
    }
  }, 120_000);
});
