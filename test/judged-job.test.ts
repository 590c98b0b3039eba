// A job judged by the per-item agent judge against the scripted model server
// (real HTTP on 127.0.0.1, the real wire protocol): every item ends decided, the
// score is complete, and the judge's key appears nowhere in the results.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountWorkVolume, unmountWorkVolume } from '@assay/activities';
import { listRegularFiles, readProjects, readTrials } from './support/records.js';
import { startMockLlm, loadScriptFile, type MockLlmServer } from '@assay/mock-llm';
import {
  ROOT,
  collectOutput,
  ensureAgentImage,
  spawnCli,
  startTestServer,
  writeJob,
  type TestServer,
} from './support/e2e.js';

const KEY = 'sk-test-judge-7f3a9c1e5b';
let server: TestServer;
let llm: MockLlmServer;

beforeAll(async () => {
  await ensureAgentImage();
  server = await startTestServer();
  llm = await startMockLlm({
    script: await loadScriptFile(path.join(ROOT, 'packages/mock-llm/examples/judge-approves-all.yaml')),
  });
}, 600_000);

afterAll(async () => {
  await llm?.close();
  await server?.stop();
});

describe('judged job', () => {
  it('decides every rubric item with checks first and the judge for the rest, without leaking the key', async () => {
    const file = writeJob({
      id: 'judged-e2e',
      trials: 1,
      tasks: ['legal-nda-review', 'fin-term-loan-schedule'],
      systems: [
        { id: 'oracle', harness: 'oracle' },
        { id: 'nop', harness: 'nop' },
      ],
      judge: {
        mode: 'per-item',
        provider: 'openai',
        model: 'judge-1',
        baseUrl: `${llm.url}/v1`,
        apiKeyEnv: 'ASSAY_TEST_JUDGE_KEY',
      },
    });
    const run = collectOutput(spawnCli(['run', file, '--json'], server.address, { ASSAY_TEST_JUDGE_KEY: KEY }));
    expect(await run.exit, run.text()).toBe(0);
    const resultsDir = path.join(path.dirname(file), 'results');
    const records = await readTrials(resultsDir);
    expect(records).toHaveLength(4);
    for (const r of records) {
      expect(
        r.verdicts.filter((v) => v.decision === 'unjudged'),
        `${r.system.id}/${r.task.id}`,
      ).toEqual([]);
      expect(r.score.value).not.toBeNull();
      expect(r.verdicts.some((v) => v.source === 'judge')).toBe(true);
    }
    const oracle = records.filter((r) => r.system.id === 'oracle');
    for (const r of oracle) expect(r.score.value).toBe(100);
    // Checks decided their items before the judge was asked: nop fails them.
    const nop = records.filter((r) => r.system.id === 'nop');
    for (const r of nop)
      expect(r.verdicts.filter((v) => v.source === 'check').every((v) => v.decision === 'not-satisfied')).toBe(true);

    expect(llm.sawCredential(KEY)).toBe(true);
    llm.assertNoSecret(KEY);
    for (const rel of await listRegularFiles(resultsDir)) {
      if (rel.startsWith('cas/')) continue;
      if (rel.endsWith('.ext4')) {
        // A trial's work volume: look inside it (workspace, instruction, session).
        const workDir = path.join(resultsDir, rel.slice(0, -'.ext4'.length));
        mountWorkVolume(workDir, 1);
        try {
          for (const inner of await listRegularFiles(workDir))
            expect(readFileSync(path.join(workDir, inner)).includes(KEY), `${rel}:${inner}`).toBe(false);
        } finally {
          unmountWorkVolume(workDir);
        }
        continue;
      }
      expect(readFileSync(path.join(resultsDir, rel)).includes(KEY), rel).toBe(false);
    }
    expect(run.text().includes(KEY)).toBe(false);
  }, 600_000);

  it('judges project criteria that no check decides, in batched mode', async () => {
    const file = writeJob({
      id: 'judged-project',
      trials: 1,
      projects: ['fdd-hengtai'],
      systems: [{ id: 'oracle', harness: 'oracle' }],
      judge: {
        mode: 'batched',
        provider: 'openai',
        model: 'judge-1',
        baseUrl: `${llm.url}/v1`,
        apiKeyEnv: 'ASSAY_TEST_JUDGE_KEY',
      },
    });
    const before = llm.modelCalls().length;
    const run = collectOutput(spawnCli(['run', file], server.address, { ASSAY_TEST_JUDGE_KEY: KEY }));
    expect(await run.exit, run.text()).toBe(0);
    const [record] = await readProjects(path.join(path.dirname(file), 'results'));
    expect(record?.final.unjudged).toEqual([]);
    expect(record?.final.verdicts.find((v) => v.criterionId === 'pa-handover-quality')?.source).toBe('judge');
    expect(record?.final.score).toBe(100);
    expect(record?.process.score).not.toBeNull();
    for (const c of record?.checkpoints ?? []) expect(c.unjudged).toEqual([]);
    // One batched session per checkpoint or final evaluation with judge-only criteria, not one per criterion.
    const judgeOnly = (record?.checkpoints.flatMap((c) => c.verdicts) ?? []).filter((v) => v.source === 'judge').length;
    expect(llm.modelCalls().length - before).toBeLessThan(2 * judgeOnly);
    llm.assertNoSecret(KEY);
  }, 600_000);

  it('re-judges a checks-only project run from its preserved snapshots, without re-running the agent', async () => {
    const file = writeJob({
      id: 'rejudge-project',
      trials: 1,
      projects: ['fdd-hengtai'],
      systems: [{ id: 'oracle', harness: 'oracle' }],
    });
    const run = collectOutput(spawnCli(['run', file], server.address));
    expect(await run.exit, run.text()).toBe(0);
    const resultsDir = path.join(path.dirname(file), 'results');
    const [before] = await readProjects(resultsDir);
    expect(before?.final.unjudged).toEqual(['pa-handover-quality']);

    const setup = path.join(path.dirname(file), 'batched.yaml');
    writeFileSync(
      setup,
      `mode: batched\nprovider: openai\nmodel: judge-1\nbaseUrl: ${llm.url}/v1\napiKeyEnv: ASSAY_TEST_JUDGE_KEY\n`,
    );
    const rejudge = collectOutput(
      spawnCli(['judge', file, '--judge', setup], server.address, { ASSAY_TEST_JUDGE_KEY: KEY }),
    );
    expect(await rejudge.exit, rejudge.text()).toBe(0);
    const [after] = await readProjects(path.join(resultsDir, 'judges', 'batched'));
    expect(after?.final.unjudged).toEqual([]);
    expect(after?.final.score).toBe(100);
    // Same submissions: snapshots and agent runs are carried over, not redone.
    expect(after?.checkpoints.map((c) => c.snapshot.manifestSha256)).toEqual(
      before?.checkpoints.map((c) => c.snapshot.manifestSha256),
    );
    expect(after?.checkpoints.map((c) => c.agent.startedAt)).toEqual(before?.checkpoints.map((c) => c.agent.startedAt));
    // The original record is untouched.
    expect((await readProjects(resultsDir))[0]).toEqual(before);
    expect(rejudge.text().includes(KEY)).toBe(false);

    // Two setups in one command: the second parses nothing (every file comes from the first's evidence).
    rmSync(path.join(resultsDir, 'evidence-cache'), { recursive: true, force: true });
    const perItem = path.join(path.dirname(file), 'per-item.yaml');
    writeFileSync(
      perItem,
      `mode: per-item\nprovider: openai\nmodel: judge-2\nbaseUrl: ${llm.url}/v1\napiKeyEnv: ASSAY_TEST_JUDGE_KEY\n`,
    );
    const both = collectOutput(
      spawnCli(['judge', file, '--judge', setup, '--judge', perItem, '--json'], server.address, {
        ASSAY_TEST_JUDGE_KEY: KEY,
      }),
    );
    expect(await both.exit, both.text()).toBe(0);
    const printed = both.text();
    const out = JSON.parse(printed.slice(printed.search(/^\{/m))) as {
      setups: { evidence: { parsed: number; reused: number } }[];
    };
    expect(out.setups).toHaveLength(2);
    expect(out.setups[0]?.evidence.parsed).toBeGreaterThan(0);
    expect(out.setups[1]?.evidence).toEqual({ parsed: 0, reused: expect.any(Number) });
    expect(out.setups[1]?.evidence.reused).toBeGreaterThan(0);
    const [again] = await readProjects(path.join(resultsDir, 'judges', 'batched'));
    // Served from the verdict cache now: the same decisions.
    const decisions = (r: typeof after) => r?.final.verdicts.map((v) => [v.criterionId, v.decision, v.reason]);
    expect(decisions(again)).toEqual(decisions(after));
    const [second] = await readProjects(path.join(resultsDir, 'judges', 'per-item'));
    expect(second?.final.unjudged).toEqual([]);
    expect(second?.checkpoints.map((c) => c.verdicts.map((v) => [v.criterionId, v.decision]))).toEqual(
      after?.checkpoints.map((c) => c.verdicts.map((v) => [v.criterionId, v.decision])),
    );
  }, 600_000);
});
