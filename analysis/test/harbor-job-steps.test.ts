// What a Harbor job folder holds beyond its trials' results, over test/fixtures/harbor-job/job (Harbor 0.25.0's
// own models wrote it: make-job.py): a multi-step trial read step by step, the job's own stats beside the same
// numbers from the trial folders, and trial.log / exception.txt read bounded and never through a symlink out.
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { analyzeResults, analysisToJson } from '../src/analyze-results.js';
import { formatHarborJobStats } from '../src/compare-harbor-job-stats.js';
import { loadJobs } from '../src/load-results.js';
import { readHarborJob } from '../src/read-harbor-job.js';
import { readHarborText } from '../src/read-harbor-text.js';
import { fromJobResults } from '../src/results-tables.js';

const JOB = path.resolve(import.meta.dirname, '../../test/fixtures/harbor-job/job');
const MULTI = 'claude-code__gpt-5/fix-bug/1';

const scratch: string[] = [];
afterEach(() => {
  for (const d of scratch.splice(0)) rmSync(d, { recursive: true, force: true });
});

function copyJob(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-harbor-steps-'));
  scratch.push(dir);
  cpSync(JOB, dir, { recursive: true });
  return dir;
}

const recordOf = (dir: string, key: string) =>
  readHarborJob(dir).trials.find((t) => `${t.system.id}/${t.task.id}/${t.trial}` === key);

describe('a multi-step Harbor trial', () => {
  it('is read step by step, as assay records its own multi-step trials', () => {
    const r = recordOf(JOB, MULTI);
    expect(r?.multiStep).toEqual({ strategy: 'final', declared: ['reproduce', 'fix'] });
    expect(r?.steps?.map((s) => [s.name, s.score, s.verifier.rewards, s.verifier.file, s.agent.durationSeconds]))
      .toMatchInlineSnapshot(`
        [
          [
            "reproduce",
            100,
            {
              "reward": 1,
            },
            "reward.txt",
            30,
          ],
          [
            "fix",
            0,
            {
              "reward": 0,
            },
            "reward.txt",
            30,
          ],
        ]
      `);
    expect(r?.steps?.[1]).toMatchObject({
      agent: { startedAt: '2026-12-01T10:25:00Z', endedAt: '2026-12-01T10:25:30Z', reason: null },
      verifier: { durationSeconds: 7, reason: null },
      aborted: null,
    });
    // The trial is scored by Harbor's aggregate (here the final step's reward), its usage the steps' summed.
    expect({ score: r?.score.value, verifier: r?.verifier, usage: r?.usage, agent: r?.agent }).toMatchInlineSnapshot(`
      {
        "agent": {
          "containerAttempts": 1,
          "durationSeconds": 60,
          "endedAt": "2026-12-01T10:25:30Z",
          "exitCode": null,
          "reason": null,
          "startedAt": "2026-12-01T10:24:20Z",
          "timedOut": false,
        },
        "score": 0,
        "usage": {
          "cachedInputTokens": 425,
          "costUsd": 0.006225,
          "inputTokens": 1700,
          "outputTokens": 410,
          "turns": null,
        },
        "verifier": {
          "durationSeconds": 14,
          "exitCode": null,
          "file": "reward.txt",
          "reason": null,
          "reward": 0,
          "rewardKey": "reward",
          "rewards": {
            "reward": 0,
          },
          "timedOut": false,
        },
      }
    `);
  });

  it('keeps each step’s exception and trajectory for the viewer, and says where the trial stopped', () => {
    const dir = copyJob();
    const info = readHarborJob(dir).harborTrials.find((t) => t.key === MULTI);
    expect(info?.trajectoryFile).toBeNull();
    expect(info?.steps?.map((s) => [s.name, path.relative(dir, s.trajectoryFile ?? ''), s.timings.verifier]))
      .toMatchInlineSnapshot(`
        [
          [
            "reproduce",
            "fix-bug__ba5c493/steps/reproduce/agent/trajectory.json",
            {
              "finished_at": "2026-12-01T10:24:58Z",
              "started_at": "2026-12-01T10:24:51Z",
            },
          ],
          [
            "fix",
            "fix-bug__ba5c493/steps/fix/agent/trajectory.json",
            {
              "finished_at": "2026-12-01T10:25:38Z",
              "started_at": "2026-12-01T10:25:31Z",
            },
          ],
        ]
      `);
    // A step that raised with no verifier result ends the trial (MultiStepTrial._should_stop_after_step).
    const file = path.join(info?.dir ?? '', 'result.json');
    const json = JSON.parse(readFileSync(file, 'utf8')) as { step_results: Record<string, unknown>[] };
    const last = json.step_results[1] ?? {};
    last.verifier_result = null;
    last.exception_info = {
      exception_type: 'AgentTimeoutError',
      exception_message: 'Agent execution timed out after 300.0 seconds',
      exception_traceback: 'Traceback …',
      occurred_at: '2026-12-01T10:25:30Z',
    };
    writeFileSync(file, JSON.stringify({ ...json, verifier_result: null }));
    const r = recordOf(dir, MULTI);
    expect(r?.steps?.[1]).toMatchObject({
      score: null,
      agent: { timedOut: true, reason: 'AgentTimeoutError: Agent execution timed out after 300.0 seconds' },
      verifier: { reward: null, reason: 'no verifier ran' },
      aborted: { by: 'no-verifier-result', reason: 'AgentTimeoutError: Agent execution timed out after 300.0 seconds' },
    });
    expect([r?.status, r?.score.value]).toEqual(['agent-timeout', null]);
  });

  it('counts in every table by its aggregated reward', async () => {
    const a = analyzeResults(fromJobResults(await loadJobs([JOB])), { resamples: 200 });
    const json = analysisToJson(a.tasks) as Record<string, Record<string, unknown>[]>;
    const board = (json.leaderboard ?? []).find((b) => b.system === 'claude-code__gpt-5');
    // count-words 100,100,0; fix-bug 0 (the multi-step trial),100,0; parse-csv 100,25,75 → 500 / 9.
    expect(board).toMatchObject({ trials: 9, scored: 9, mean: expect.closeTo(500 / 9, 9) });
  });
});

describe("the job's own stats", () => {
  it('are read beside the same numbers from the trial folders, and agree on the fixture', () => {
    const stats = readHarborJob(JOB).harborStats;
    expect(stats?.completed).toEqual({ harbor: 36, recomputed: 36 });
    expect(stats?.errored).toEqual({ harbor: 2, recomputed: 2 });
    expect(stats?.evals.flatMap((e) => e.disagreements)).toEqual([]);
    expect(formatHarborJobStats('job', stats!)).toMatchInlineSnapshot(`
      [
        "harbor stats: job: 36 trials completed, 2 errored (the trial folders: 36, 2)",
        "harbor stats: job: claude-code__claude-sonnet-4-5__fixture-tasks: 9 trials with rewards, 0 errors, correctness 0.222, performance 0.167, reward 0.556, pass@k none (the trial folders agree)",
        "harbor stats: job: claude-code__gpt-5__fixture-tasks: 9 trials with rewards, 0 errors, correctness 0.222, performance 0.222, reward 0.333, pass@k none (the trial folders agree)",
        "harbor stats: job: codex__claude-sonnet-4-5__fixture-tasks: 9 trials with rewards, 0 errors, correctness 0.222, performance 0.167, reward 0.444, pass@k none (the trial folders agree)",
        "harbor stats: job: codex__gpt-5__fixture-tasks: 8 trials with rewards, 2 errors, correctness 0.222, performance 0.222, reward 0.111, pass@k none (the trial folders agree)",
      ]
    `);
  });

  it('say where Harbor’s numbers disagree with the trial folders, without changing the scores', () => {
    const dir = copyJob();
    const file = path.join(dir, 'result.json');
    const job = JSON.parse(readFileSync(file, 'utf8')) as {
      stats: { evals: Record<string, { n_trials: number; metrics: Record<string, number>[] }> };
    };
    const sonnet = job.stats.evals['claude-code__claude-sonnet-4-5__fixture-tasks'];
    if (!sonnet) throw new Error('no eval');
    sonnet.n_trials = 8;
    sonnet.metrics = [{ correctness: 0.2, performance: 0.1, reward: 0.5 }];
    writeFileSync(file, JSON.stringify(job));
    const read = readHarborJob(dir);
    const e = read.harborStats?.evals.find((x) => x.eval.startsWith('claude-code__claude-sonnet-4-5'));
    expect(e?.disagreements).toMatchInlineSnapshot(`
      [
        "n_trials 8, the trial folders 9",
        "metric correctness 0.2, performance 0.1, reward 0.5, the mean over the trial folders correctness 0.222, performance 0.167, reward 0.556",
      ]
    `);
    expect(read.trials.map((t) => t.score.value)).toEqual(readHarborJob(JOB).trials.map((t) => t.score.value));
  });

  it('that are not JobStats are a note, not an error', () => {
    const dir = copyJob();
    const file = path.join(dir, 'result.json');
    const job = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...job, stats: { evals: { x: { n_trials: 'nine' } } } }));
    const read = readHarborJob(dir);
    expect(read.harborStats).toBeNull();
    expect(read.problems).toEqual([{ file, message: expect.stringContaining('not Harbor 0.25.0') }]);
  });
});

describe('trial.log and exception.txt', () => {
  it('are found in each trial folder and read whole when small', () => {
    const info = readHarborJob(JOB).harborTrials.find((t) => t.key === 'codex__gpt-5/fix-bug/3');
    expect(info?.logFile).toMatch(/trial\.log$/);
    const log = readHarborText(JOB, info?.logFile ?? '');
    expect(log).toMatchObject({ present: true, omittedBytes: 0, note: null });
    expect(log.text).toContain('INFO Starting trial fix-bug__');
    const exception = readHarborText(JOB, info?.exceptionFile ?? '');
    expect(exception.text).toContain('NonZeroAgentExitCodeError: Agent command exited with code 1');
  });

  it('a huge log is read as its head and tail only', () => {
    const dir = copyJob();
    const info = readHarborJob(dir).harborTrials[0];
    const file = path.join(info?.dir ?? '', 'trial.log');
    writeFileSync(file, `FIRST\n${'x'.repeat(5_000_000)}\nLAST\n`);
    const log = readHarborText(dir, file, 1000);
    expect(log.size).toBe(5_000_012);
    expect(log.omittedBytes).toBe(5_000_012 - 1000);
    expect(log.text.startsWith('FIRST\n')).toBe(true);
    expect(log.text.endsWith('\nLAST\n')).toBe(true);
    expect(log.text.length).toBeLessThan(1100);
  });

  it('a symlink out of the job folder is neither listed nor read', () => {
    const dir = copyJob();
    const outside = path.join(mkdtempSync(path.join(os.tmpdir(), 'assay-outside-')), 'secret.txt');
    scratch.push(path.dirname(outside));
    writeFileSync(outside, 'secret');
    const info = readHarborJob(dir).harborTrials[0];
    const file = path.join(info?.dir ?? '', 'trial.log');
    unlinkSync(file);
    symlinkSync(outside, file);
    expect(readHarborJob(dir).harborTrials[0]?.logFile).toBeNull();
    expect(readHarborText(dir, file)).toMatchObject({
      present: false,
      text: '',
      note: expect.stringContaining('out of'),
    });
  });
});
