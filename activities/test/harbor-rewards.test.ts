// Harbor's reward rule (reward.json before reward.txt; `reward`, else the only one, else the mean), its score, and what a
// task asks for within the job's limits.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { harborSettings, resolveEnv } from '../src/harbor/harbor-settings.js';
import { harborTaskForStep } from '../src/harbor/harbor-step.js';
import { scoreOfReward } from '../src/harbor/harbor-task-runtime.js';
import { readRewards } from '../src/harbor/run-harbor-verifier.js';
import { withEvaluation } from '../src/task-evaluation.js';
import type { TrialRecord } from '@assay/core';
import type { HarborStep, HarborTask } from '@assay/benchmark';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function verifierDir(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-reward-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

const run = (r: ReturnType<typeof readRewards>) => ({ ...r, exitCode: 0, timedOut: false, durationSeconds: 1 });

describe('Harbor rewards', () => {
  it('prefers reward.json, records every named reward and scores "reward"', () => {
    const r = readRewards(verifierDir({ 'reward.json': '{"reward": 0.5, "style": 1}', 'reward.txt': '0\n' }));
    expect(r).toEqual({
      rewards: { reward: 0.5, style: 1 },
      rewardKey: 'reward',
      reward: 0.5,
      file: 'reward.json',
      reason: null,
    });
    expect(scoreOfReward(run(r))).toEqual({ value: 50, decided: 50, coverage: 1, success: false, source: 'verifier' });
  });

  it('reads reward.txt as the reward, and a single named reward as the score', () => {
    expect(readRewards(verifierDir({ 'reward.txt': '1\n' }))).toMatchObject({ rewards: { reward: 1 }, reward: 1 });
    expect(readRewards(verifierDir({ 'reward.json': '{"passed": 1}' }))).toMatchObject({
      rewardKey: 'passed',
      reward: 1,
    });
  });

  it('scores the mean of several named rewards when none is "reward", keeping each', () => {
    const r = readRewards(verifierDir({ 'reward.json': '{"correctness": 1, "performance": 0.5}' }));
    expect(r).toEqual({
      rewards: { correctness: 1, performance: 0.5 },
      rewardKey: null,
      reward: 0.75,
      meanOf: ['correctness', 'performance'],
      file: 'reward.json',
      reason: null,
    });
    expect(scoreOfReward(run(r))).toEqual({ value: 75, decided: 75, coverage: 1, success: false, source: 'verifier' });
  });

  it('gives no score (never 0) when there is no reward to score, and says why', () => {
    const cases: [Record<string, string>, string][] = [
      [{}, 'wrote neither'],
      [{ 'reward.txt': '' }, 'is empty'],
      [{ 'reward.txt': 'yes' }, 'is not a number'],
      [{ 'reward.json': '{}' }, 'names no reward'],
      [{ 'reward.json': '[1]' }, 'must be an object'],
      [{ 'reward.json': '{"reward": "1"}' }, '"reward" is not a number'],
    ];
    for (const [files, reason] of cases) {
      const r = readRewards(verifierDir(files));
      expect(r.reward, reason).toBeNull();
      expect(r.reason).toContain(reason);
      expect(scoreOfReward(run(r))).toEqual({
        value: null,
        decided: null,
        coverage: 0,
        success: null,
        source: 'verifier',
      });
    }
  });
});

describe('Harbor task settings', () => {
  const task = (environment: Partial<HarborTask['config']['environment']>, agentTimeout: number | null) =>
    ({
      config: {
        agent: { timeoutSec: agentTimeout, user: null, networkMode: null, allowedHosts: [] },
        verifier: { timeoutSec: 600, user: null, networkMode: 'no-network', allowedHosts: [], env: {} },
        environment: {
          buildTimeoutSec: 600,
          cpus: null,
          memoryMb: null,
          storageMb: null,
          networkMode: 'public',
          allowedHosts: [],
          ...environment,
        },
      },
    }) as unknown as HarborTask;
  const limits = { agentSeconds: 100, setupSeconds: 300, maxSteps: 200, verifierSeconds: 1000 };
  const resources = { cpus: 2, memoryGiB: 8, storageGiB: 30, pids: 1024, network: 'bridge' as const };

  it("caps the task's limits by the job's and maps network modes explicitly", () => {
    expect(harborSettings(task({ cpus: 4, memoryMb: 1024, storageMb: 2048 }, 50), limits, resources)).toEqual({
      agentSeconds: 50,
      verifierSeconds: 600,
      buildSeconds: 300,
      cpus: 2,
      memoryGiB: 1,
      storageGiB: 2,
      pids: 1024,
      agentNetwork: 'bridge',
      verifierNetwork: 'none',
      agentEgress: null,
      verifierEgress: null,
    });
    // An allowlist environment: the agent takes its hosts; the verifier, naming its own mode, does not.
    const allowlist = task({ networkMode: 'allowlist', allowedHosts: ['pypi.org'] }, 50);
    expect(harborSettings(allowlist, limits, resources)).toMatchObject({
      agentEgress: ['pypi.org'],
      verifierEgress: null,
    });
    expect(harborSettings(task({}, null), limits, resources)).toMatchObject({
      agentSeconds: 100,
      cpus: 2,
      memoryGiB: 8,
    });
  });

  it("gives a step its own phase policy over the task's (Harbor's _explicit_phase_policy), else the task's", () => {
    const base = task({ networkMode: 'allowlist', allowedHosts: ['pypi.org'] }, 50);
    const policy = (networkMode: string | null, allowedHosts: string[] = []) => ({ networkMode, allowedHosts });
    const step = (agent: object, verifier: object) =>
      ({
        name: 's',
        agent: { timeoutSec: null, user: null, ...agent },
        verifier: { timeoutSec: 60, user: null, env: {}, mode: null, environment: null, ...verifier },
        artifacts: [],
        collect: [],
      }) as unknown as HarborStep;
    const withConfig = { ...base, config: { ...base.config, artifacts: [] } } as HarborTask;
    (withConfig.config.verifier as { collect: unknown[] }).collect = [];
    const own = harborTaskForStep(withConfig, step(policy('allowlist', ['npmjs.org']), policy('public')));
    expect(harborSettings(own, limits, resources)).toMatchObject({
      agentNetwork: 'bridge',
      agentEgress: ['npmjs.org'],
      verifierNetwork: 'bridge',
      verifierEgress: null,
    });
    // Without its own: the task's phases ([verifier] names "no-network"; [agent] falls back to the environment).
    const inherited = harborTaskForStep(withConfig, step(policy(null), policy(null)));
    expect(harborSettings(inherited, limits, resources)).toMatchObject({
      agentEgress: ['pypi.org'],
      verifierNetwork: 'none',
      verifierEgress: null,
    });
  });

  it('resolves ${VAR} and ${VAR:-default} from the worker, naming a missing variable', () => {
    expect(resolveEnv({ A: '${X}-${Y:-d}', B: 'plain' }, { X: 'x' }, 'task.toml:verifier.env')).toEqual({
      A: 'x-d',
      B: 'plain',
    });
    expect(() => resolveEnv({ A: '${MISSING}' }, {}, 'task.toml:verifier.env')).toThrow(
      'task.toml:verifier.env.A: ${MISSING} is not set on the worker and has no default',
    );
  });
});

describe('re-judging a Harbor trial', () => {
  it("keeps the verifier's score: there is no rubric to re-judge", () => {
    const score = scoreOfReward(run(readRewards(verifierDir({ 'reward.txt': '1' }))));
    const record = { score, verdicts: [], recordedAt: 'then' } as unknown as TrialRecord;
    const formatCompliance = { required: false, compliant: true, missing: [], wrongType: [] };
    expect(withEvaluation(record, { verdicts: [], formatCompliance })).toBe(record);
  });
});
