// `assay judge --batch` on a real Temporal server against the scripted server's batch APIs: the
// sample job's stored submissions judged through batches give the verdicts live judging gives, at the
// batch price; and with the CLI (its embedded worker) killed -9 and the server restarted while a batch is
// open, the command run again attaches, and no batch is lost or submitted twice.
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlmServer, type MockScript } from '@assay/mock-llm';
import { VERDICT_CACHE_PREFIX } from '@assay/results';
import { readTrials } from './support/records.js';
import {
  collectOutput,
  ensureAgentImage,
  spawnCli,
  waitFor,
  startTestServer,
  writeJob,
  type TestServer,
} from './support/e2e.js';

const KEY = 'sk-test-batch-judge-51c0de';
const env = { ASSAY_TEST_JUDGE_KEY: KEY, ASSAY_HEARTBEAT_SECONDS: '5', ASSAY_JUDGE_BATCH_POLL_SECONDS: '1' };
let server: TestServer;
let llm: MockLlmServer;

/** An agent judge in two turns: it lists the files, then approves (one item or several). */
function script(delayMs: number): MockScript {
  const approve = { decision: 'satisfied', justification: 'scripted judge: satisfied', evidence: [] };
  return {
    batch: { delayMs },
    rules: [
      { name: 'look', match: { turn: 1 }, reply: { toolCalls: [{ name: 'list_files', arguments: {} }] } },
      {
        name: 'many',
        match: { tool: 'submit_verdicts' },
        reply: {
          toolCalls: [
            {
              name: 'submit_verdicts',
              arguments: {
                verdicts: { $each: '^ITEM (?<id>\\S+):', in: 'user', item: { itemId: '{{id}}', ...approve } },
              },
            },
          ],
        },
      },
      {
        name: 'one',
        match: { tool: 'submit_verdict' },
        reply: { toolCalls: [{ name: 'submit_verdict', arguments: approve }] },
      },
    ],
    default: { text: 'ok' },
  };
}

beforeAll(async () => {
  await ensureAgentImage();
  server = await startTestServer();
  llm = await startMockLlm({ script: script(2_000) });
}, 600_000);

afterAll(async () => {
  await llm?.close();
  await server?.stop();
});

async function cli(args: string[]): Promise<string> {
  const run = collectOutput(spawnCli(args, server.address, env));
  expect(await run.exit, run.text()).toBe(0);
  return run.text();
}

type Verdict = {
  itemId: string;
  decision: string;
  reason: string;
  evidence: string[];
  judge?: Record<string, unknown>;
};
const verdictsOf = async (dir: string) =>
  (await readTrials(dir))
    .map((r) => ({ at: `${r.system.id}/${r.task.id}/${r.trial}`, verdicts: r.verdicts as unknown as Verdict[] }))
    .sort((a, b) => (a.at < b.at ? -1 : 1));
const decided = (rs: Awaited<ReturnType<typeof verdictsOf>>) =>
  rs.map((r) => ({ at: r.at, v: r.verdicts.map((v) => [v.itemId, v.decision, v.reason, v.evidence]) }));

/**
 * A checks-only job of the sample (oracle and nop), and a per-item judge setup over the scripted server. No
 * prompt caching: the cache's share depends on the order requests reach it, which batching changes.
 */
async function storedJob(
  id: string,
  provider: 'anthropic' | 'openai' = 'anthropic',
): Promise<{ file: string; setup: string; results: string }> {
  const file = writeJob({
    id,
    trials: 1,
    tasks: ['legal-nda-review', 'fin-term-loan-schedule'],
    systems: [
      { id: 'oracle', harness: 'oracle' },
      { id: 'nop', harness: 'nop' },
    ],
  });
  await cli(['run', file]);
  const setup = path.join(path.dirname(file), 'per-item.yaml');
  const model = provider === 'anthropic' ? 'claude-sonnet-5-5' : 'gpt-6.2-sol';
  const baseUrl = provider === 'anthropic' ? llm.url : `${llm.url}/v1`;
  const judge = `mode: per-item\nprovider: ${provider}\nmodel: ${model}\nbaseUrl: ${baseUrl}\napiKeyEnv: ASSAY_TEST_JUDGE_KEY\npromptCache: false\n`;
  writeFileSync(setup, judge);
  return { file, setup, results: path.join(path.dirname(file), 'results') };
}

type StoredJob = Awaited<ReturnType<typeof storedJob>>;

/**
 * Judged live first (the verdicts to match), the verdict cache then cleared so the batch run decides afresh, and
 * the scripted batches set to stay open `batchMs`; `args` judge through batches into judges/batch.
 */
async function judgedLive(job: StoredJob, batchMs: number) {
  await cli(['judge', job.file, '--judge', job.setup, '--name', 'live']);
  const live = await verdictsOf(path.join(job.results, 'judges', 'live'));
  rmSync(path.join(job.results, VERDICT_CACHE_PREFIX), { recursive: true });
  llm.setScript(script(batchMs));
  const args = ['judge', job.file, '--judge', job.setup, '--name', 'batch', '--batch', '--poll-seconds', '1'];
  return { live, args, before: llm.batches.length };
}

/** Rounds whose batch id the submit activity stored. */
function storedIds(job: StoredJob): number {
  const dir = path.join(job.results, 'judges', 'batch');
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('batch.json')).length;
}

describe('assay judge --batch', () => {
  it('gives the verdicts of live judging, one batch per judge turn, at the batch price', async () => {
    const job = await storedJob('batch-e2e');
    const liveOut = await cli(['judge', job.file, '--judge', job.setup, '--name', 'live', '--json']);
    const live = await verdictsOf(path.join(job.results, 'judges', 'live'));
    // The live run's verdicts are in the job's verdict cache, under the same keys: the batch run decides afresh.
    rmSync(path.join(job.results, VERDICT_CACHE_PREFIX), { recursive: true });
    const batchesBefore = llm.batches.length;
    const batchOut = await cli([
      'judge',
      job.file,
      '--judge',
      job.setup,
      '--name',
      'batch',
      '--batch',
      '--poll-seconds',
      '1',
      '--json',
    ]);
    const batched = await verdictsOf(path.join(job.results, 'judges', 'batch'));
    expect(batched.length).toBe(4);
    expect(decided(batched)).toEqual(decided(live));
    const judged = batched.flatMap((r) => r.verdicts).filter((v) => v.judge && v.judge.reused === false);
    expect(judged.length).toBeGreaterThan(0);
    expect(judged.every((v) => v.judge?.batch === true)).toBe(true);
    // Two turns per session (look, then submit): two batches.
    expect(llm.batches.length - batchesBefore).toBe(2);
    const costOf = (text: string) =>
      (JSON.parse(text.slice(text.search(/^\{/m))) as { judgeCost: { costUsd: number; totalTokens: number } })
        .judgeCost;
    const [liveCost, batchCost] = [costOf(liveOut), costOf(batchOut)];
    expect(batchCost.totalTokens).toBe(liveCost.totalTokens);
    expect(batchCost.costUsd).toBeCloseTo(liveCost.costUsd / 2, 9);
    expect(batchOut).not.toContain(KEY);
  }, 600_000);

  it('a worker killed -9 and the server restarted while batches are open lose no batch and submit none twice', async () => {
    const job = await storedJob('batch-kill-e2e');
    // Each batch stays open 12 s: long enough to kill the command (its embedded worker) while it waits.
    const { live, args, before } = await judgedLive(job, 12_000);
    const kill = async (opened: number, faults = '') => {
      const run = collectOutput(spawnCli(args, server.address, { ...env, ASSAY_FAULT_DELAYS: faults }));
      // Killed once the round's batch id is stored: over Anthropic, whose batches carry no key, a worker lost
      // between the provider's answer and that write would submit again (the OpenAI test below covers it).
      await waitFor(
        () => (llm.batches.length - before >= opened && storedIds(job) >= opened ? true : undefined),
        `batch ${opened} stored`,
      );
      process.kill(run.pid ?? 0, 'SIGKILL');
      await run.exit;
    };
    // Round 1's batch just submitted, its id stored, the submit activity held before it ends (8 s): kill -9, then
    // the server restarted under it. The retried submit finds the id it stored instead of submitting again.
    await kill(1, 'judge-submit=8000');
    await server.stop();
    await server.restart();
    // Run again: it attaches to the same workflow, which waits on the same batch; round 2's batch open: kill -9 again.
    await kill(2);
    const last = await cli(args);
    expect(last).toContain('round 2');
    expect(llm.batches.length - before).toBe(2);
    const batched = await verdictsOf(path.join(job.results, 'judges', 'batch'));
    expect(decided(batched)).toEqual(decided(live));
    expect(batched.flatMap((r) => r.verdicts).some((v) => v.judge?.batch === true)).toBe(true);
  }, 600_000);

  it('over OpenAI, a worker lost before it stored the batch id finds the batch by its key', async () => {
    const job = await storedJob('batch-find-e2e', 'openai');
    const { live, args, before } = await judgedLive(job, 6_000);
    // Round 1's batch created, the submit held before it stores the id (8 s): kill -9.
    const run = collectOutput(spawnCli(args, server.address, { ...env, ASSAY_FAULT_DELAYS: 'judge-submitted=8000' }));
    await waitFor(() => (llm.batches.length > before ? true : undefined), 'batch 1 submitted');
    process.kill(run.pid ?? 0, 'SIGKILL');
    await run.exit;
    expect(storedIds(job)).toBe(0);
    await cli(args);
    expect(llm.batches.length - before).toBe(2);
    expect(llm.batches.slice(before).map((b) => b.metadata?.assay_key)).toEqual([
      expect.stringMatching(/\/1$/),
      expect.stringMatching(/\/2$/),
    ]);
    expect(decided(await verdictsOf(path.join(job.results, 'judges', 'batch')))).toEqual(decided(live));
  }, 600_000);

  it('a live job with judge.batch is judged through batches once its units ran, as a live-judged job is', async () => {
    const judge = (batch: boolean) => ({
      mode: 'per-item',
      provider: 'anthropic',
      model: 'claude-sonnet-5-5',
      baseUrl: llm.url,
      apiKeyEnv: 'ASSAY_TEST_JUDGE_KEY',
      promptCache: false,
      batch,
    });
    const units = {
      trials: 1,
      tasks: ['legal-nda-review', 'fin-term-loan-schedule'],
      systems: [
        { id: 'oracle', harness: 'oracle' },
        { id: 'nop', harness: 'nop' },
      ],
    };
    llm.setScript(script(2_000));
    const liveJob = writeJob({ id: 'judged-live', ...units, judge: judge(false) });
    await cli(['run', liveJob]);
    const live = await verdictsOf(path.join(path.dirname(liveJob), 'results'));
    const before = llm.batches.length;
    const batchJob = writeJob({ id: 'judged-batch', ...units, judge: judge(true) });
    await cli(['run', batchJob]);
    const results = path.join(path.dirname(batchJob), 'results');
    const batched = await verdictsOf(results);
    expect(decided(batched)).toEqual(decided(live));
    const verdicts = batched.flatMap((r) => r.verdicts);
    expect(verdicts.some((v) => v.judge?.batch === true)).toBe(true);
    expect(verdicts.some((v) => v.judge?.unjudgedReason === 'awaiting-batch')).toBe(false);
    expect(llm.batches.length - before).toBe(2);
    // Submitted again: every unit is recorded and nothing awaits a batch, so no batch is sent.
    await cli(['run', batchJob]);
    expect(llm.batches.length - before).toBe(2);
    expect(decided(await verdictsOf(results))).toEqual(decided(live));
  }, 600_000);
});
