// Harbor task folders end to end through the real CLI: a real Temporal dev server, the task's environment
// image built from its Dockerfile (FROM the local base image), oracle and nop in real containers, the verifier
// on the agent's snapshot, the reward as the record's score (several named rewards: their mean), and `assay
// report` drawing the leaderboard.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { trialWorkflowId } from '@assay/core';
import { ROOT, collectOutput, spawnCli, useTestServer, writeJob } from './support/e2e.js';
import { readTrials } from './support/records.js';

const DATASET = path.join(ROOT, 'test/fixtures/harbor/dataset');
const MALFORMED = path.join(ROOT, 'test/fixtures/harbor/malformed');
const MULTI_REWARD = path.join(ROOT, 'test/fixtures/harbor/multi-reward');
const ENTRYPOINT = path.join(ROOT, 'test/fixtures/harbor/entrypoint');
const PINNED = path.join(ROOT, 'test/fixtures/harbor/manifest');
const HEALTHCHECK = path.join(ROOT, 'test/fixtures/harbor/healthcheck');
const ARTIFACTS = path.join(ROOT, 'test/fixtures/harbor/artifacts');
const ALLOWLIST = path.join(ROOT, 'test/fixtures/harbor/allowlist');
const server = useTestServer();

async function runCli(args: string[], expectedCode = 0, env: Record<string, string> = {}): Promise<string> {
  const child = collectOutput(spawnCli(args, server().address, env));
  const code = await child.exit;
  expect(code, child.text()).toBe(expectedCode);
  return child.text();
}

/** Every file of a folder with its sha256: the task folders must be read, never rewritten. */
function treeHash(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const abs = path.join(d, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else h.update(`${path.relative(dir, abs)}\0${statSync(abs).mode}\0`).update(readFileSync(abs));
    }
  };
  walk(dir);
  return h.digest('hex');
}

describe('Harbor task folders under assay run', () => {
  it('scores oracle 1 and nop 0 from the verifier, keeps every reward, leaves nothing behind', async () => {
    const before = treeHash(DATASET);
    const job = writeJob({
      id: 'harbor-e2e',
      benchmark: `harbor:${DATASET}`,
      trials: 2,
      concurrency: 2,
      systems: [
        { id: 'oracle', harness: 'oracle' },
        { id: 'nop', harness: 'nop' },
      ],
    });
    const events = (await runCli(['run', job, '--json'])).trim().split('\n');
    const summary = JSON.parse(events.at(-1) ?? '') as { summary: { system: string; meanScore: number | null }[] };
    expect(Object.fromEntries(summary.summary.map((s) => [s.system, s.meanScore]))).toEqual({ oracle: 100, nop: 0 });

    const results = path.join(path.dirname(job), 'results');
    const records = await readTrials(results);
    expect(records).toHaveLength(4);
    for (const r of records) {
      const oracle = r.system.id === 'oracle';
      expect(r.status, JSON.stringify(r.agent)).toBe('completed');
      expect(r.task).toEqual({ id: 'write-hello', domain: 'harbor', formatRequired: false });
      expect(r.score).toEqual({
        value: oracle ? 100 : 0,
        decided: oracle ? 100 : 0,
        coverage: 1,
        success: oracle,
        source: 'verifier',
      });
      // Both named rewards recorded; "reward" is the score. environment_env: [environment].env reached the
      // verifier's container through the agent's snapshot; the oracle's reward needs [verifier.env] and
      // [solution.env], and is 0 if the agent's container had /tests.
      expect(r.verifier).toMatchObject({
        rewards: { reward: oracle ? 1 : 0, environment_env: 1 },
        rewardKey: 'reward',
        reward: oracle ? 1 : 0,
        file: 'reward.json',
        exitCode: 0,
        timedOut: false,
      });
      const trialDir = path.join(results, 'trials', r.system.id, 'write-hello', String(r.trial));
      expect(readFileSync(path.join(trialDir, 'verifier', 'test-stdout.txt'), 'utf8')).toContain(
        `verified: reward=${oracle ? 1 : 0}`,
      );
      // [environment].storage_mb = 2048 within the job's 30 GiB; Harbor's agent writes the image's filesystem.
      expect(r.storage).toMatchObject({ limitGiB: 2, enforced: false });
    }

    // No container of the job and no snapshot image is left; the task folders are as they were.
    const docker = new Docker();
    const left = await docker.listContainers({ all: true, filters: { label: ['assay.job=harbor-e2e'] } });
    expect(left.map((c) => c.Names)).toEqual([]);
    const snapshots = (await docker.listImages({ filters: { reference: ['assay/harbor-snapshot'] } })).flatMap(
      (i) => i.RepoTags ?? [],
    );
    for (const r of records) {
      const id = trialWorkflowId('harbor-e2e', `${r.system.id}/write-hello/${r.trial}`);
      const tag = `assay/harbor-snapshot:${createHash('sha256').update(id).digest('hex').slice(0, 24)}`;
      expect(snapshots).not.toContain(tag);
    }
    expect(treeHash(DATASET)).toBe(before);

    // The analysis reads the records unchanged: the leaderboard from the verifier's scores.
    const out = mkdtempSync(path.join(os.tmpdir(), 'assay-harbor-report-'));
    await runCli(['report', job, '--out', out]);
    const [header = '', ...rows] = readFileSync(path.join(out, 'tables', 'leaderboard.csv'), 'utf8')
      .trim()
      .split('\n');
    const columns = header.split(',');
    const board = Object.fromEntries(
      rows.map((l) => {
        const cells = l.split(',');
        return [cells[0], Object.fromEntries(columns.map((c, i) => [c, cells[i]]))];
      }),
    );
    expect(board.oracle).toMatchObject({ trials: '2', scored: '2', unjudged: '0', mean: '100', success_rate: '100' });
    expect(board.nop).toMatchObject({ trials: '2', scored: '2', unjudged: '0', mean: '0', success_rate: '0' });
  }, 900_000);

  it('scores a task with two named rewards and no "reward" by their mean, keeping each (never no score)', async () => {
    const job = writeJob({
      id: 'harbor-two-rewards',
      benchmark: `harbor:${MULTI_REWARD}`,
      systems: [
        { id: 'oracle', harness: 'oracle' },
        { id: 'nop', harness: 'nop' },
      ],
    });
    await runCli(['run', job, '--json']);
    const records = await readTrials(path.join(path.dirname(job), 'results'));
    expect(records).toHaveLength(6); // three trials each, the job's default
    const bySystem = Object.fromEntries(records.map((r) => [r.system.id, r]));
    // oracle: correctness 1, performance 1; nop: correctness 0, performance 0.5.
    expect(bySystem.oracle?.verifier).toMatchObject({
      rewards: { correctness: 1, performance: 1 },
      rewardKey: null,
      reward: 1,
      meanOf: ['correctness', 'performance'],
      reason: null,
    });
    expect(bySystem.oracle?.score).toMatchObject({ value: 100, success: true, source: 'verifier' });
    expect(bySystem.nop?.verifier).toMatchObject({ rewards: { correctness: 0, performance: 0.5 }, reward: 0.25 });
    expect(bySystem.nop?.score).toMatchObject({ value: 25, success: false, source: 'verifier' });

    // The report shows each key on its own beside the leaderboard's one score.
    const out = mkdtempSync(path.join(os.tmpdir(), 'assay-harbor-report-'));
    await runCli(['report', job, '--out', out]);
    const table = readFileSync(path.join(out, 'tables', 'harbor-rewards.csv'), 'utf8')
      .trim()
      .split('\n');
    expect(table[0]).toBe('system,key,trials,mean,min,max,no_reward,harbor_trials');
    expect(table.slice(1).sort()).toEqual([
      'nop,correctness,3,0,0,0,0,3',
      'nop,performance,3,0.5,0.5,0.5,0,3',
      'oracle,correctness,3,1,1,1,0,3',
      'oracle,performance,3,1,1,1,0,3',
    ]);
  }, 600_000);

  it("runs the image's ENTRYPOINT as Harbor does: its /etc/hosts name and local service serve agent and tests", async () => {
    const job = writeJob({
      id: 'harbor-entrypoint',
      benchmark: `harbor:${ENTRYPOINT}`,
      systems: [
        { id: 'oracle', harness: 'oracle' },
        { id: 'nop', harness: 'nop' },
      ],
    });
    await runCli(['run', job, '--json']);
    const results = path.join(path.dirname(job), 'results');
    const records = await readTrials(results);
    const scores = Object.fromEntries(records.map((r) => [r.system.id, r.score.value]));
    expect(scores).toEqual({ oracle: 100, nop: 0 });
    // The verifier reached the service under its name (its own container ran the entrypoint again).
    for (const r of records)
      expect(
        readFileSync(
          path.join(results, 'trials', r.system.id, 'local-service', '1', 'verifier', 'test-stdout.txt'),
          'utf8',
        ),
      ).toContain('verified: service says 42');
  }, 600_000);

  it("holds the agent until the task's and a step's healthcheck pass; one that never does ends the trial with its reason", async () => {
    const jobId = 'harbor-healthcheck';
    const job = writeJob({
      id: jobId,
      benchmark: `harbor:${HEALTHCHECK}`,
      trials: 1,
      concurrency: 2,
      systems: [{ id: 'oracle', harness: 'oracle' }],
    });
    // The never-healthy trial is an infrastructure failure: the run says so (exit 2) and writes no record for it.
    const events = (await runCli(['run', job, '--json'], 2)).trim().split('\n');
    const summary = JSON.parse(events.find((l) => l.startsWith('{"event":"summary"')) ?? '') as {
      infraFailed: { key: string; error: string }[];
    };
    const reason =
      'never-healthy/task.toml:environment.healthcheck: Healthcheck failed after 2 consecutive retries: test -f /tmp/never-there (last attempt: exit 1)';
    expect(summary.infraFailed.map((f) => f.key)).toEqual(['oracle/never-healthy/1']);
    expect(summary.infraFailed[0]?.error).toContain(reason);
    const results = path.join(path.dirname(job), 'results');
    const failure = path.join(results, 'trials/oracle/never-healthy/1/infra-failure.json');
    expect((JSON.parse(readFileSync(failure, 'utf8')) as { error: string }).error).toContain(reason);

    // The oracle fetches the late service once, without waiting: 1 only because the healthcheck held it (the
    // step's ran as the step's agent user, "worker").
    const records = await readTrials(results);
    expect(records.map((r) => [r.task.id, r.status, r.score.value]).sort()).toEqual([
      ['slow-service', 'completed', 100],
      ['step-service', 'completed', 100],
    ]);
    const steps = records.find((r) => r.task.id === 'step-service')?.steps;
    expect(steps?.map((s) => [s.name, s.verifier.rewards])).toEqual([
      ['first', { reward: 1 }],
      ['second', { reward: 1 }],
    ]);
    const docker = new Docker();
    expect(await docker.listContainers({ all: true, filters: { label: [`assay.job=${jobId}`] } })).toEqual([]);
  }, 600_000);

  it('runs the tasks a dataset.toml pins, and refuses one whose content is not the pinned digest', async () => {
    const job = writeJob({
      id: 'harbor-pinned',
      benchmark: `harbor:${PINNED}/dataset.toml`,
      trials: 1,
      systems: [{ id: 'oracle', harness: 'oracle' }],
    });
    await runCli(['run', job, '--json']);
    const records = await readTrials(path.join(path.dirname(job), 'results'));
    expect(records.map((r) => [r.task.id, r.score.value]).sort()).toEqual([
      ['add-numbers', 100],
      ['shout', 100],
    ]);
    expect(records[0]?.benchmark).toEqual({ id: 'pinned', version: '1.0' });

    const edited = path.join(mkdtempSync(path.join(os.tmpdir(), 'assay-pinned-')), 'pinned');
    cpSync(PINNED, edited, { recursive: true });
    appendFileSync(path.join(edited, 'shout', 'tests', 'test.sh'), '# edited\n');
    const refused = writeJob({
      id: 'harbor-edited',
      benchmark: `harbor:${edited}`,
      systems: [{ id: 'oracle', harness: 'oracle' }],
    });
    const text = await runCli(['run', refused], 1);
    expect(text).toMatch(
      /dataset\.toml:tasks\[0\]\.digest: task "assay-fixtures\/shout" \(shout\/\) has content sha256:[0-9a-f]{64}, not the pinned sha256:1443588d/,
    );
    expect(existsSync(path.join(path.dirname(refused), 'results'))).toBe(false);
    rmSync(path.dirname(edited), { recursive: true, force: true });
  }, 600_000);

  it('runs a separate verifier on its own image with only the declared artifacts, a missing one "failed"; a step\'s too', async () => {
    const jobId = 'harbor-separate';
    const job = writeJob({
      id: jobId,
      benchmark: `harbor:${ARTIFACTS}`,
      trials: 1,
      concurrency: 2,
      systems: [{ id: 'oracle', harness: 'oracle' }],
    });
    await runCli(['run', job, '--json']);
    const results = path.join(path.dirname(job), 'results');
    const byTask = Object.fromEntries((await readTrials(results)).map((r) => [r.task.id, r]));
    // grade-apart: the verifier had tests/Dockerfile's tool (the agent's image had not), the two declared
    // artifacts and /logs/artifacts, and nothing else of the agent's: no undeclared file, link or excluded file.
    expect(byTask['grade-apart']?.verifier?.rewards).toEqual({
      reward: 1,
      tool: 1,
      answer: 1,
      report: 1,
      apart: 1,
      convention: 1,
    });
    const apart = path.join(results, 'trials/oracle/grade-apart/1/artifacts');
    expect(readFileSync(path.join(apart, 'app/answer.txt'), 'utf8')).toBe('42\n');
    expect(readdirSync(path.join(apart, 'report')).sort()).toEqual(['summary.txt']);
    expect(JSON.parse(readFileSync(path.join(apart, 'manifest.json'), 'utf8'))).toEqual([
      {
        source: '/logs/artifacts',
        destination: 'artifacts/logs/artifacts',
        type: 'directory',
        status: 'ok',
        service: null,
        exclude: [],
      },
      {
        source: '/app/answer.txt',
        destination: 'artifacts/app/answer.txt',
        type: 'file',
        status: 'ok',
        service: null,
        exclude: [],
      },
      {
        source: '/app/report',
        destination: 'artifacts/report',
        type: 'directory',
        status: 'ok',
        service: null,
        exclude: ['*.tmp'],
      },
    ]);
    // grade-missing ([verifier.environment] implies separate): as in Harbor the verifier runs without the
    // artifact the agent never wrote, which the manifest says failed.
    expect(byTask['grade-missing']?.verifier?.rewards).toEqual({ reward: 0, answer: 1 });
    const missing = path.join(results, 'trials/oracle/grade-missing/1/artifacts/manifest.json');
    expect(
      (JSON.parse(readFileSync(missing, 'utf8')) as { source: string; status: string }[]).map((e) => [
        e.source,
        e.status,
      ]),
    ).toEqual([
      ['/logs/artifacts', 'empty'],
      ['/app/answer.txt', 'ok'],
      ['/app/never-written.txt', 'failed'],
    ]);
    // steps-apart: step 1's verifier shared, step 2's separate with the task's and its own artifacts.
    expect(byTask['steps-apart']?.steps?.map((st) => [st.name, st.verifier.reward])).toEqual([
      ['first', 1],
      ['second', 1],
    ]);
    const stepTwo = path.join(results, 'trials/oracle/steps-apart/1/steps/second/artifacts/app');
    expect(readdirSync(stepTwo).sort()).toEqual(['one.txt', 'two.txt']);
    // shared-collect: a shared verifier on the snapshot as main's collect hook left it (Harbor's runs there).
    expect(byTask['shared-collect']?.verifier?.rewards).toEqual({ reward: 1 });
    const hooked = path.join(results, 'trials/oracle/shared-collect/1/artifacts/app/hooked.txt');
    expect(readFileSync(hooked, 'utf8')).toBe('hooked after 42\n');
    const docker = new Docker();
    expect(await docker.listContainers({ all: true, filters: { label: [`assay.job=${jobId}`] } })).toEqual([]);
    const left = await docker.listImages({ filters: { label: [`assay.job=${jobId}`] } });
    expect(left.flatMap((i) => i.RepoTags ?? [])).toEqual([]);
  }, 600_000);

  it('assay validate names a malformed task.toml field as file:field: reason, and warns of an unknown one', async () => {
    const job = writeJob({
      id: 'harbor-bad',
      benchmark: `harbor:${MALFORMED}`,
      systems: [{ id: 'nop', harness: 'nop' }],
    });
    const text = await runCli(['validate', job], 1);
    expect(text).toContain(
      'test/fixtures/harbor/malformed/bad-timeout/task.toml:agent.timeout_sec: must be a positive number of seconds (got -5)',
    );
    // An unknown field is a warning, printed too: kept, never dropped silently.
    expect(text).toContain(
      'warning: test/fixtures/harbor/malformed/bad-timeout/task.toml:colour: is not a Harbor 0.20 field: kept as written, not used by assay',
    );
  }, 120_000);

  it("runs allowlist tasks: agent and verifier reach the listed server through the worker's proxy, not the other", async () => {
    // Two servers on this machine: 127.0.0.2 is in the task's allowed_hosts, 127.0.0.3 is not.
    const servers = await Promise.all(
      ['127.0.0.2', '127.0.0.3'].map(async (host) => {
        const srv = http.createServer((_req, res) => res.end(host === '127.0.0.2' ? 'listed' : 'unlisted'));
        await new Promise<void>((resolve) => srv.listen(0, host, resolve));
        return srv;
      }),
    );
    const url = (i: number) =>
      `http://${['127.0.0.2', '127.0.0.3'][i]}:${(servers[i]?.address() as AddressInfo).port}/`;
    try {
      const jobId = 'harbor-allowlist';
      const job = writeJob({
        id: jobId,
        benchmark: `harbor:${ALLOWLIST}`,
        trials: 1,
        concurrency: 2,
        resources: { network: 'bridge' },
        systems: [
          { id: 'oracle', harness: 'oracle' },
          { id: 'nop', harness: 'nop' },
        ],
      });
      const env = { ASSAY_TEST_LISTED_URL: url(0), ASSAY_TEST_UNLISTED_URL: url(1) };
      const events = (await runCli(['run', job, '--json'], 0, env)).trim().split('\n');
      const summary = JSON.parse(events.at(-1) ?? '') as { summary: { system: string; meanScore: number | null }[] };
      expect(Object.fromEntries(summary.summary.map((s) => [s.system, s.meanScore]))).toEqual({ oracle: 100, nop: 0 });
      // Each step under its own policy (step 2's agent reaches only 127.0.0.3, its verifier nothing), and a
      // separate verifier under its own allowlist while the agent had no network.
      const records = await readTrials(path.join(path.dirname(job), 'results'));
      const oracle = (task: string) => records.find((r) => r.system.id === 'oracle' && r.task.id === task);
      expect(oracle('step-policies')?.steps?.map((st) => st.verifier.reward)).toEqual([1, 1]);
      expect(oracle('verify-apart')?.verifier?.reward).toBe(1);
      expect(records).toHaveLength(6);
      // The trial's internal networks (the agent's, a separate verifier's) went with its record.
      const docker = new Docker();
      const left = await docker.listNetworks({ filters: { label: [`assay.job=${jobId}`] } });
      expect(left).toEqual([]);
    } finally {
      for (const srv of servers) srv.close();
    }
  }, 600_000);
});
