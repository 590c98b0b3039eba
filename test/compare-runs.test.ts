// `assay compare` end to end: a job, a harness-swapped copy of it, and a re-judged copy (the per-item judge
// against the scripted model server on 127.0.0.1), each compared with the original through the real CLI:
// what differs in what produced them, the paired difference with its CI, and the items that flipped.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScriptFile, startMockLlm, type MockLlmServer } from '@assay/mock-llm';
import {
  ROOT,
  collectOutput,
  ensureAgentImage,
  spawnCli,
  startTestServer,
  writeJob,
  type TestServer,
} from './support/e2e.js';

const KEY = 'sk-test-compare-4d2b8e6a1c';
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

async function cli(args: string[]): Promise<string> {
  const child = collectOutput(spawnCli(args, server.address, { ASSAY_TEST_JUDGE_KEY: KEY }));
  expect(await child.exit, child.text()).toBe(0);
  return child.text();
}

interface Comparison {
  metric: string;
  provenance: { what: string; a: string; b: string }[];
  systems: { a: string; b: string; paired: { tasks: number; difference: number; ci: unknown } | null }[];
  flips: {
    task: string;
    itemId: string;
    a: { decision: string; reason: string };
    b: { decision: string; reason: string };
  }[];
  agreement: {
    system: string;
    n: number;
    agree: number;
    kappa: number | null;
    decidedAOnly: number;
    decidedBOnly: number;
  }[];
}

const jsonOf = (text: string): Comparison => JSON.parse(text.slice(text.search(/^\{/m))) as Comparison;

describe('assay compare', () => {
  it('shows a harness swap and a judge ablation: provenance, paired CI, flipped items', async () => {
    const tasks = ['edu-fractions-lesson', 'fin-term-loan-schedule', 'legal-nda-review'];
    const a = writeJob({ id: 'cmp-a', trials: 2, tasks, systems: [{ id: 'agent', harness: 'oracle' }] });
    const swapped = [{ id: 'agent', harness: 'scripted', settings: { agent: 'correction-not-applied' } }];
    const b = writeJob({ id: 'cmp-b', trials: 2, tasks, systems: swapped });
    await cli(['run', a]);
    await cli(['run', b]);

    const text = await cli(['compare', a, b, '--resamples', '2000']);
    expect(text).toContain('system agent: harness: oracle → scripted');
    expect(text).toMatch(/^agent\s+3\s+\d+\.\d\s+\d+\.\d\s+\+\d+\.\d\s+\[.*\]/m);
    expect(text).toMatch(/Items whose verdict differs \([1-9]\d*\)/);
    expect(text).toMatch(/agent \S+ #[12] \S+: satisfied → not-satisfied/);
    const swap = jsonOf(await cli(['compare', a, b, '--json', '--resamples', '2000']));
    expect(swap.metric).toBe('decided');
    expect(swap.systems).toHaveLength(1);
    expect(swap.systems[0]?.paired?.tasks).toBe(3);
    expect(swap.systems[0]?.paired?.difference).toBeGreaterThan(0);
    // Trial i of a task is paired with trial i of the same task: every flip names a check's reasons on both sides.
    expect(swap.flips.length).toBeGreaterThan(0);
    for (const f of swap.flips) expect([f.a.decision, f.b.decision]).toEqual(['satisfied', 'not-satisfied']);

    // The same submissions re-judged by the per-item judge: the judge setup differs, items no check decided flip.
    const setup = path.join(path.dirname(a), 'per-item.yaml');
    const judge = `mode: per-item\nprovider: openai\nmodel: judge-1\nbaseUrl: ${llm.url}/v1\napiKeyEnv: ASSAY_TEST_JUDGE_KEY\n`;
    writeFileSync(setup, judge);
    await cli(['judge', a, '--judge', setup]);
    const rejudged = path.join(path.dirname(a), 'results', 'judges', 'per-item');
    const ablation = jsonOf(await cli(['compare', a, rejudged, '--json', '--resamples', '2000']));
    const whats = ablation.provenance.map((d) => d.what);
    expect(whats).toEqual(expect.arrayContaining(['judge.mode', 'judge.model', 'judge.provider']));
    expect(ablation.provenance.find((d) => d.what === 'judge.mode')).toMatchObject({ a: 'checks-only', b: 'per-item' });
    expect(whats.some((w) => w.includes('harness'))).toBe(false);
    // The records say the same: the judge each was decided by, and the model the provider answered with.
    expect(ablation.provenance).toContainEqual({
      what: 'system agent: judge.reportedModels',
      a: '[]',
      b: '["judge-1"]',
    });
    expect(ablation.flips.length).toBeGreaterThan(0);
    for (const f of ablation.flips) {
      expect([f.a.decision, f.b.decision]).toEqual(['unjudged', 'satisfied']);
      expect(f.b.reason).toBe('scripted judge: satisfied');
    }
    expect(JSON.stringify(ablation)).not.toContain(KEY);
    // Checks decide the same items on both sides; what the judge decided is counted apart, not as disagreement.
    const [agreement] = ablation.agreement;
    expect(agreement?.n).toBeGreaterThan(0);
    expect(agreement).toMatchObject({ system: 'agent', agree: agreement?.n, decidedAOnly: 0 });
    expect(agreement?.decidedBOnly).toBe(ablation.flips.length);
    // The report's judge-setup table reads the same comparison: the same counts.
    const out = path.join(path.dirname(a), 'report');
    await cli(['report', path.join(path.dirname(a), 'results'), rejudged, '--out', out]);
    const csv = readFileSync(path.join(out, 'tables', 'judge-setups.csv'), 'utf8')
      .trim()
      .split('\n');
    expect(csv[0]).toBe('a,b,system,n,agree,agreement,kappa,decided_a_only,decided_b_only');
    expect(csv[1]).toMatch(
      new RegExp(
        `^cmp-a,cmp-a\\+judge:per-item,agent,${agreement?.n},${agreement?.agree},100,[^,]*,0,${ablation.flips.length}$`,
      ),
    );
  }, 600_000);

  it('compares multi-stage projects apart: final and process scores, and the criteria that flipped', async () => {
    const project = { trials: 1, projects: ['fdd-hengtai'] };
    const a = writeJob({ id: 'cmp-project-a', ...project, systems: [{ id: 'agent', harness: 'oracle' }] });
    const stale = [{ id: 'agent', harness: 'scripted', settings: { agent: 'correction-not-applied' } }];
    const b = writeJob({ id: 'cmp-project-b', ...project, systems: stale });
    await cli(['run', a]);
    await cli(['run', b]);
    // Checks-only leaves a criterion unjudged in each run: the projects are compared on decided criteria, and
    // the comparison says so.
    const text = await cli(['compare', a, b, '--resamples', '2000']);
    expect(text).toContain('system agent: harness: oracle → scripted');
    expect(text).not.toContain('Per task');
    expect(text).toContain('Multi-stage projects (decided criteria only');
    expect(text).toMatch(/^agent {2}final\s+1\s+\d+\.\d\s+\d+\.\d\s+[+-]?\d+\.\d/m);
    expect(text).toMatch(/Project criteria whose verdict differs \([1-9]\d*\)/);
    // Both re-judged by the scripted judge: every criterion decided, final and process scores paired.
    const setup = path.join(path.dirname(a), 'batched.yaml');
    const judge = `mode: batched\nprovider: openai\nmodel: judge-1\nbaseUrl: ${llm.url}/v1\napiKeyEnv: ASSAY_TEST_JUDGE_KEY\n`;
    writeFileSync(setup, judge);
    await cli(['judge', a, '--judge', setup]);
    await cli(['judge', b, '--judge', setup]);
    const judged = (file: string) => path.join(path.dirname(file), 'results', 'judges', 'batched');
    const printed = await cli(['compare', judged(a), judged(b), '--json', '--resamples', '2000']);
    const c = JSON.parse(printed.slice(printed.search(/^\{/m))) as {
      systems: unknown[];
      projects: {
        systems: { scores: { score: string; paired: { tasks: number; meanA: number; meanB: number } | null }[] }[];
        flips: { project: string; at: string; a: { decision: string }; b: { decision: string } }[];
      };
    };
    expect(c.systems).toEqual([]);
    const scores = c.projects.systems[0]?.scores ?? [];
    expect(scores.map((s) => [s.score, s.paired?.tasks])).toEqual([
      ['final', 1],
      ['process', 1],
    ]);
    const final = scores.find((s) => s.score === 'final')?.paired;
    expect(final?.meanA).toBeGreaterThan(final?.meanB ?? Infinity);
    expect(c.projects.flips.length).toBeGreaterThan(0);
    for (const f of c.projects.flips) {
      expect(f.project).toBe('fdd-hengtai');
      expect(f.a.decision).not.toBe(f.b.decision);
    }
  }, 600_000);
});
