// `assay run` once dropped the lines of units that finished after its last poll.
import { describe, expect, it } from 'vitest';
import type { JobProgress, TrialOutcome } from '@assay/core';
import { createProgressReporter } from '../src/progress-reporter.js';

const done = (key: string, over: Partial<TrialOutcome> = {}): TrialOutcome => ({
  key,
  status: 'completed',
  score: 100,
  decided: 100,
  unjudged: 0,
  ...over,
});
const progress = (d: TrialOutcome[]): JobProgress => ({ total: 4, skipped: 0, running: [], done: d });

describe('createProgressReporter', () => {
  it('prints every finished unit exactly once, also those only the final result shows', () => {
    const lines: string[] = [];
    const report = createProgressReporter((l) => lines.push(l));
    report(progress([done('a/t/1')]));
    report(progress([done('a/t/1'), done('a/t/2', { score: null, decided: 50, unjudged: 2 })]));
    // The final result: two more finished after the last poll; one was skipped.
    report(
      progress([
        done('a/t/1'),
        done('a/t/2', { score: null, decided: 50, unjudged: 2 }),
        done('a/t/3', { status: 'skipped' }),
        done('a/p/1', { kind: 'project', score: 80, decided: 75 }),
      ]),
    );
    expect(lines).toMatchInlineSnapshot(`
      [
        "  a/t/1: completed, score 100.0",
        "  a/t/2: completed, score 50.0 (decided items), 2 unjudged",
        "  a/p/1: completed, final 80.0, process 75.0",
      ]
    `);
  });
});
