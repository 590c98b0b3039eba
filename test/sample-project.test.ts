// The sample DeliverBench-style project end to end on a real Temporal server and
// real containers: the oracle, the paper's P07 case (correction recorded in a
// change note only) and P04 case (superseded decision left active), and nop.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readProjects } from './support/records.js';
import type { CriterionVerdict, ProjectRecord } from '@assay/core';
import {
  collectOutput,
  ensureAgentImage,
  spawnCli,
  startTestServer,
  writeJob,
  type TestServer,
} from './support/e2e.js';

let server: TestServer;
let records: Map<string, ProjectRecord>;

beforeAll(async () => {
  await ensureAgentImage();
  server = await startTestServer();
  const file = writeJob({
    id: 'project-e2e',
    trials: 1,
    concurrency: 4,
    projects: ['fdd-hengtai'],
    systems: [
      { id: 'oracle', harness: 'oracle' },
      { id: 'nop', harness: 'nop' },
      { id: 'p07', harness: 'scripted', settings: { agent: 'correction-not-applied' } },
      { id: 'p04', harness: 'scripted', settings: { agent: 'superseded-decision' } },
    ],
  });
  const run = collectOutput(spawnCli(['run', file], server.address));
  expect(await run.exit, run.text()).toBe(0);
  records = new Map((await readProjects(path.join(path.dirname(file), 'results'))).map((r) => [r.system.id, r]));
}, 600_000);

afterAll(async () => {
  await server?.stop();
});

const verdict = (r: ProjectRecord | undefined, where: string, id: string): CriterionVerdict | undefined =>
  where === 'final'
    ? r?.final.verdicts.find((v) => v.criterionId === id)
    : r?.checkpoints.find((c) => c.subtaskId === where)?.verdicts.find((v) => v.criterionId === id);

/** Favourable: a positive criterion satisfied, a negative one or a gate not triggered. */
const favourable = (v: CriterionVerdict): boolean =>
  v.weight > 0 && !v.fatal ? v.decision === 'satisfied' : v.decision === 'not-satisfied';

describe('sample project', () => {
  it('preserves a checkpoint per subtask, in timeline order, for every system', () => {
    for (const r of records.values()) {
      expect(r.checkpoints.map((c) => c.subtaskId)).toEqual([
        't01-baseline-model',
        't02-scoping-memo',
        't03-apply-correction',
        't04-ebitda-adjustments',
        't05-management-deck',
        't06-final-package',
      ]);
      for (const c of r.checkpoints) expect(c.snapshot.manifestSha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('gives the oracle every decided criterion, no gate, and leaves judge-only criteria explicitly unjudged', () => {
    const oracle = records.get('oracle');
    const decided = [
      ...(oracle?.checkpoints.flatMap((c) => c.verdicts) ?? []),
      ...(oracle?.final.verdicts ?? []),
    ].filter((v) => v.decision !== 'unjudged');
    expect(decided.length).toBeGreaterThan(40);
    expect(decided.filter((v) => !favourable(v)).map((v) => v.criterionId)).toEqual([]);
    expect(oracle?.checkpoints.find((c) => c.subtaskId === 't03-apply-correction')?.score).toBe(100);
    expect(oracle?.final.gateTriggered).toBe(false);
    expect(oracle?.final.unjudged).toEqual(['pa-handover-quality']);
    expect(oracle?.final.score).toBeNull();
    expect(oracle?.final.targets.map((t) => t.group).sort()).toEqual([
      'artifact-quality',
      'cross-file-consistency',
      'package-acceptance',
    ]);
  });

  it('P07: a correction noted but not applied loses the artifact and cross-file criteria, and the gate zeroes the final score', () => {
    const r = records.get('p07');
    expect(verdict(r, 't03-apply-correction', 'capex-2026-corrected')?.decision).toBe('not-satisfied');
    expect(verdict(r, 'final', 'fa-capex-corrected')?.decision).toBe('not-satisfied');
    expect(verdict(r, 'final', 'cf-memo-no-stale-capex')?.decision).toBe('not-satisfied');
    expect(r?.final.gates).toEqual(['fatal-stale-capex']);
    expect(r?.final.score).toBe(0);
    expect(r?.checkpoints.find((c) => c.subtaskId === 't03-apply-correction')?.score).toBeLessThan(50);
  });

  it('P04: a superseded decision left active is caught at package acceptance', () => {
    const r = records.get('p04');
    expect(verdict(r, 'final', 'pa-stale-decision')?.decision).toBe('satisfied'); // failure condition met
    expect(verdict(r, 'final', 'cf-deck-no-leaseback')?.decision).toBe('not-satisfied');
    expect(verdict(r, 't03-apply-correction', 'capex-2026-corrected')?.decision).toBe('satisfied');
    expect(r?.final.gateTriggered).toBe(false);
  });

  it('nop: missing deliverables are judged by the criteria that cover them, not errors', () => {
    const r = records.get('nop');
    expect(verdict(r, 'final', 'pa-model')?.decision).toBe('not-satisfied');
    expect(verdict(r, 't01-baseline-model', 'model-present')?.decision).toBe('not-satisfied');
    for (const c of r?.checkpoints ?? []) expect(c.agent.status).toBe('completed');
  });

  it('accounts agent time per subtask and in total', () => {
    const r = records.get('oracle');
    const sum = r?.checkpoints.reduce((a, c) => a + c.agent.durationSeconds, 0) ?? -1;
    expect(r?.resources.agentSeconds).toBeCloseTo(sum, 6);
    expect(r?.resources.totalTokens).toBe((r?.resources.inputTokens ?? 0) + (r?.resources.outputTokens ?? 0));
  });
});
