// The sample job end to end, through the real CLI: a real Temporal dev server,
// real containers, the bundled benchmark. Checks-only evaluation.
import { describe, expect, it } from 'vitest';
import { collectOutput, spawnCli, useTestServer, writeJob } from './support/e2e.js';

interface Summary { system: string; meanDecided: number | null; done: number; failed: number; trials: number; unjudged: number }

const server = useTestServer();

async function runJob(file: string): Promise<{ summary: Summary[]; skipped: number }> {
  const child = collectOutput(spawnCli(['run', file, '--json'], server().address));
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
      tasks: ['med-discharge-reconciliation', 'fin-term-loan-schedule', 'legal-nda-review', 'biz-quarterly-review-deck', 'stem-sensor-calibration', 'edu-fractions-lesson'],
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
    const first = await runJob(job);
    const by = new Map(first.summary.map((s) => [s.system, s]));
    expect(by.get('oracle')?.meanDecided).toBe(100);
    expect(by.get('nop')?.meanDecided).toBe(0);
    for (const flawed of ['missing', 'wrong-type', 'no-cache', 'stale']) {
      const score = by.get(flawed)?.meanDecided ?? NaN;
      expect(score, flawed).toBeGreaterThan(0);
      expect(score, flawed).toBeLessThan(100);
    }
    for (const s of first.summary) expect(s.done, s.system).toBe(s.trials);

    const again = await runJob(job);
    expect(again.skipped).toBe(first.summary.reduce((a, s) => a + s.trials, 0));
    expect(again.summary).toEqual(first.summary);
  }, 600_000);
});
