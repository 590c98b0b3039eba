// The sample job end to end, through the real CLI: a real Temporal dev server,
// real containers, the bundled benchmark. Checks-only evaluation.
import { Client, Connection } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { jobWorkflowId } from '@assay/core';
import { collectOutput, spawnCli, useTestServer, writeJob } from './support/e2e.js';

interface Summary {
  system: string;
  meanDecided: number | null;
  done: number;
  failed: number;
  trials: number;
  unjudged: number;
}

const server = useTestServer();

async function runJob(
  file: string,
  env: Record<string, string> = {},
): Promise<{ summary: Summary[]; skipped: number }> {
  const child = collectOutput(spawnCli(['run', file, '--json'], server().address, env));
  const code = await child.exit;
  expect(code, child.text()).toBe(0);
  const text = child.text();
  return JSON.parse(text.slice(text.indexOf('{\n'))) as { summary: Summary[]; skipped: number };
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
    const first = await runJob(job, { ASSAY_JOB_BATCH_SIZE: '10' });
    const by = new Map(first.summary.map((s) => [s.system, s]));
    expect(by.get('oracle')?.meanDecided).toBe(100);
    expect(by.get('nop')?.meanDecided).toBe(0);
    for (const flawed of ['missing', 'wrong-type', 'no-cache', 'stale']) {
      const score = by.get(flawed)?.meanDecided ?? NaN;
      expect(score, flawed).toBeGreaterThan(0);
      expect(score, flawed).toBeLessThan(100);
    }
    for (const s of first.summary) expect(s.done, s.system).toBe(s.trials);

    expect(first.skipped).toBe(0);
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
