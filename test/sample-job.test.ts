// The sample job end to end, through the real CLI: a real Temporal dev server,
// real containers, the bundled benchmark. Checks-only evaluation.
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { jobWorkflowId, type TrialRecord } from '@assay/core';
import { collectOutput, spawnCli, useTestServer, writeJob } from './support/e2e.js';
import { readTrials } from './support/records.js';

interface Summary {
  system: string;
  meanScore: number | null;
  meanDecided: number | null;
  successRate: number | null;
  coverage: number;
  done: number;
  failed: number;
  trials: number;
  unjudged: number;
}

const server = useTestServer();

async function runCli(args: string[], env: Record<string, string> = {}): Promise<string> {
  const child = collectOutput(spawnCli(args, server().address, env));
  const code = await child.exit;
  expect(code, child.text()).toBe(0);
  return child.text();
}

const jsonOf = <T>(text: string): T => JSON.parse(text.slice(text.indexOf('{\n'))) as T;

/** `run --json` prints one JSON event per line; the last is the summary. */
async function runJob(file: string): Promise<{ summary: Summary[]; skipped: number }> {
  const events = (await runCli(['run', file, '--json'])).trim().split('\n');
  return JSON.parse(events.at(-1) ?? '') as { summary: Summary[]; skipped: number };
}

const mean = (xs: number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/** Every summary number, computed straight from the records. */
function expectSummaryOfRecords(summary: Summary[], records: TrialRecord[]): void {
  for (const row of summary) {
    const rs = records.filter((r) => r.system.id === row.system);
    const complete = rs.flatMap((r) => (r.score.value === null ? [] : [r.score.value]));
    expect(row, row.system).toEqual({
      system: row.system,
      trials: rs.length,
      done: rs.filter((r) => r.status !== 'infra-failed').length,
      failed: rs.filter((r) => r.status !== 'completed').length,
      unjudged: rs.filter((r) => r.verdicts.some((v) => v.decision === 'unjudged')).length,
      meanScore: mean(complete),
      meanDecided: mean(rs.flatMap((r) => (r.score.decided === null ? [] : [r.score.decided]))),
      successRate: complete.length ? (100 * complete.filter((x) => x >= 90).length) / complete.length : null,
      coverage: mean(rs.map((r) => r.score.coverage)) ?? 0,
    });
  }
}

describe('sample job', () => {
  it('scores oracle 100, nop 0 and the flawed agents in between; a resubmission runs nothing again', async () => {
    const job = writeJob({
      id: 'sample-e2e',
      trials: 1,
      tasks: [
        'med-discharge-reconciliation',
        'fin-term-loan-schedule',
        'legal-nda-review',
        'biz-quarterly-review-deck',
        'stem-sensor-calibration',
        'edu-fractions-lesson',
      ],
      concurrency: 4,
      systems: [
        { id: 'oracle', harness: 'oracle' },
        { id: 'nop', harness: 'nop' },
        { id: 'missing', harness: 'scripted', settings: { agent: 'missing-deliverable' } },
        { id: 'wrong-type', harness: 'scripted', settings: { agent: 'wrong-type' } },
        { id: 'no-cache', harness: 'scripted', settings: { agent: 'no-cached-values' } },
        { id: 'stale', harness: 'scripted', settings: { agent: 'correction-not-applied' } },
      ],
    });
    // Batches of 10 children per workflow run: the job continues as new 3 times on its 36 trials.
    // The plain output's last progress summary accounts for every trial, those of earlier runs too.
    const text = await runCli(['run', job], { ASSAY_JOB_BATCH_SIZE: '10' });
    const summaries = text.split('\n').filter((l) => l.startsWith('progress '));
    expect(summaries.at(-1), text).toMatch(/: 36\/36 done, 0 running, 0 failed/);
    const first = jsonOf<{ summary: Summary[] }>(await runCli(['status', job, '--json']));
    expectSummaryOfRecords(first.summary, await readTrials(path.join(path.dirname(job), 'results')));
    const by = new Map(first.summary.map((s) => [s.system, s]));
    expect(by.get('oracle')?.meanDecided).toBe(100);
    expect(by.get('nop')?.meanDecided).toBe(0);
    for (const flawed of ['missing', 'wrong-type', 'no-cache', 'stale']) {
      const score = by.get(flawed)?.meanDecided ?? NaN;
      expect(score, flawed).toBeGreaterThan(0);
      expect(score, flawed).toBeLessThan(100);
    }
    for (const s of first.summary) expect(s.done, s.system).toBe(s.trials);

    const connection = await Connection.connect({ address: server().address });
    const runs: string[] = [];
    for await (const w of new Client({ connection }).workflow.list({
      query: `WorkflowId = '${jobWorkflowId('sample-e2e')}'`,
    }))
      runs.push(w.status.name);
    await connection.close();
    expect(runs.sort()).toEqual(['COMPLETED', 'CONTINUED_AS_NEW', 'CONTINUED_AS_NEW', 'CONTINUED_AS_NEW']);

    const again = await runJob(job);
    expect(again.skipped).toBe(first.summary.reduce((a, s) => a + s.trials, 0));
    expect(again.summary).toEqual(first.summary);
  }, 600_000);
});
