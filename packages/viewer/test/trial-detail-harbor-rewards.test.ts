// The trial page's Harbor rewards: buildTrialDetail over a results folder gives each named reward as written,
// the keys the score was made of and how, and the verifier's reason when there is no reward; null for a rubric
// task. describeHarborRewards alone covers the other ways a score is taken (`reward`, the only key, an older
// record's several keys with none named reward).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trialRecordSchema, type HarborVerifierRun } from '@assay/core';
import { createFsResultsStore, trialRecordKey } from '@assay/results';
import { makeTrialRecord } from '../../results/test/make-records.js';
import { buildTrialDetail } from '../src/build-trial-detail.js';
import { describeHarborRewards } from '../src/describe-harbor-rewards.js';
import { resolveSources } from '../src/resolve-sources.js';
import type { ViewerSource } from '../src/viewer-source.js';

const verifier = (v: Partial<HarborVerifierRun> & Pick<HarborVerifierRun, 'rewards'>): HarborVerifierRun => ({
  rewardKey: null,
  reward: null,
  file: 'reward.json',
  exitCode: 0,
  timedOut: false,
  durationSeconds: 3,
  reason: null,
  ...v,
});

let tmp: string;
let source: ViewerSource;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'assay-viewer-harbor-'));
  const dir = path.join(tmp, 'results');
  const store = createFsResultsStore(dir);
  const harbor = (trial: number, v: HarborVerifierRun) => {
    const value = v.reward === null ? null : v.reward * 100;
    return trialRecordSchema.parse({
      ...makeTrialRecord('s', 'h1', trial),
      verdicts: [],
      deliverables: [],
      score: { value, decided: value, coverage: value === null ? 0 : 1, success: null, source: 'verifier' },
      verifier: v,
    });
  };
  const twoKeys = verifier({
    rewards: { performance: 0.5, correctness: 1 },
    reward: 0.75,
    meanOf: ['correctness', 'performance'],
  });
  const none = verifier({ rewards: {}, file: null, exitCode: 1, reason: 'tests/test.sh wrote no reward (exit 1)' });
  await store.putJson(trialRecordKey('s', 'h1', 1), harbor(1, twoKeys));
  await store.putJson(trialRecordKey('s', 'h1', 2), harbor(2, none));
  await store.putJson(trialRecordKey('s', 't1', 1), { ...makeTrialRecord('s', 't1', 1), deliverables: [] });
  const [first] = await resolveSources([dir]);
  if (!first) throw new Error('no source');
  source = first;
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("the trial detail's Harbor rewards", () => {
  it('two keys averaged: both shown by key, both marked scored, the score "mean of" them', async () => {
    expect((await buildTrialDetail(source, 's', 'h1', 1)).harborRewards).toMatchInlineSnapshot(`
      {
        "file": "reward.json",
        "reason": null,
        "reward": 0.75,
        "rewards": [
          {
            "key": "correctness",
            "scored": true,
            "value": 1,
          },
          {
            "key": "performance",
            "scored": true,
            "value": 0.5,
          },
        ],
        "scoredBy": "mean of correctness, performance",
      }
    `);
  });

  it('no reward: no keys, and the reason why', async () => {
    expect((await buildTrialDetail(source, 's', 'h1', 2)).harborRewards).toMatchInlineSnapshot(`
      {
        "file": null,
        "reason": "tests/test.sh wrote no reward (exit 1)",
        "reward": null,
        "rewards": [],
        "scoredBy": "no reward",
      }
    `);
  });

  it('a rubric task has none', async () => {
    expect((await buildTrialDetail(source, 's', 't1', 1)).harborRewards).toBeNull();
  });
});

describe('describeHarborRewards', () => {
  it('marks the key the score was taken from and says how', () => {
    const named = describeHarborRewards(
      verifier({ rewards: { reward: 0.6, style: 0.5 }, rewardKey: 'reward', reward: 0.6 }),
    );
    expect(named?.rewards).toEqual([
      { key: 'reward', value: 0.6, scored: true },
      { key: 'style', value: 0.5, scored: false },
    ]);
    expect(named?.scoredBy).toBe('the key named reward');
    const only = describeHarborRewards(verifier({ rewards: { passed: 1 }, rewardKey: 'passed', reward: 1 }));
    expect(only?.scoredBy).toBe('the only key (passed)');
  });

  it('an older record with several keys and none named reward (no meanOf): no score, nothing marked', () => {
    const older = describeHarborRewards(verifier({ rewards: { a: 1, b: 0 }, reason: null }));
    expect(older?.rewards.map((r) => r.scored)).toEqual([false, false]);
    expect(older?.scoredBy).toBe('no score: several keys, none named reward');
    expect(describeHarborRewards(undefined)).toBeNull();
  });
});
