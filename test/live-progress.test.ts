// Live progress end to end, as a script sees it (stdout is not a terminal): `assay run` on 24 trivial
// trials at concurrency 4 prints periodic summaries and one line per failure, with its Web UI link, and
// its last summary accounts for every trial; `--json` prints one event per line, each of which parses.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureBaseImage } from '@assay/infra';
import { readTrials } from './support/records.js';
import { ROOT, collectOutput, spawnCli, useTestServer, writeJob } from './support/e2e.js';

const server = useTestServer();
const UI = { ASSAY_TEMPORAL_UI: 'http://ui.test:8233', ASSAY_PROGRESS_SECONDS: '3' };
const TASKS = ['legal-nda-review', 'edu-fractions-lesson', 'fin-term-loan-schedule', 'stem-sensor-calibration'];

async function systems() {
  const base = (await ensureBaseImage({ root: ROOT })).tag;
  return [
    { id: 'oracle', harness: 'oracle' },
    { id: 'nop', harness: 'nop' },
    { id: 'broken', harness: 'command', settings: { image: base, command: 'echo no luck >&2; exit 3' } },
  ];
}

/** stdout alone (the JSON events), and whether the process exited cleanly. */
function runJson(file: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/assay.mjs'), 'run', file, '--json'], {
    cwd: ROOT,
    env: { ...process.env, TEMPORAL_ADDRESS: server().address, ...UI },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('live progress', () => {
  it('accounts for all 24 trials in plain lines, with a line and a UI link per failure', async () => {
    const file = writeJob({ id: 'progress-plain', trials: 2, concurrency: 4, tasks: TASKS, systems: await systems() });
    const run = collectOutput(spawnCli(['run', file], server().address, UI));
    expect(await run.exit, run.text()).toBe(0);
    const lines = run.text().split('\n');
    const summaries = lines.filter((l) => l.startsWith('progress '));
    expect(summaries.at(-1), run.text()).toMatch(/: 24\/24 done, 0 running, 8 failed, \d+ unjudged;/);
    // The last summary's per-system lines follow it.
    const last = lines.lastIndexOf(summaries.at(-1)!);
    expect(lines.slice(last + 1, last + 4).map((l) => l.trim().replace(/ +/g, ' '))).toEqual([
      expect.stringMatching(/^oracle 8\/8 done, 0 running, 0 failed/),
      expect.stringMatching(/^nop 8\/8 done, 0 running, 0 failed/),
      expect.stringMatching(/^broken 8\/8 done, 0 running, 8 failed/),
    ]);
    // One line per failure, never two, each with its trial workflow's link.
    const failures = lines.filter((l) => l.startsWith('  agent-failed broken/'));
    expect(failures, run.text()).toHaveLength(8);
    expect(new Set(failures.map((l) => l.split(' ')[3])).size).toBe(8);
    for (const f of failures)
      expect(f).toMatch(/\(http:\/\/ui\.test:8233\/namespaces\/default\/workflows\/assay-trial%3Aprogress-plain%3A/);
    expect(run.text()).toContain(
      'Temporal UI: http://ui.test:8233/namespaces/default/workflows/assay-job%3Aprogress-plain',
    );
    // No per-trial lines any more, and the records agree.
    expect(lines.filter((l) => /^ {2}\w+\/[\w-]+\/\d+: /.test(l))).toEqual([]);
    expect(await readTrials(path.join(path.dirname(file), 'results'))).toHaveLength(24);
  }, 600_000);

  it('prints JSON events, one object per line, from start to summary', async () => {
    const file = writeJob({
      id: 'progress-json',
      trials: 2,
      concurrency: 4,
      tasks: TASKS.slice(0, 2),
      systems: await systems(),
    });
    const { code, stdout, stderr } = await runJson(file);
    expect(code, stderr + stdout).toBe(0);
    const events = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events[0]).toMatchObject({
      event: 'start',
      jobId: 'progress-json',
      systems: ['oracle', 'nop', 'broken'],
      unitsPerSystem: 4,
      ui: 'http://ui.test:8233/namespaces/default/workflows/assay-job%3Aprogress-json',
    });
    expect(events.at(-1)?.event).toBe('summary');
    const progress = events.filter((e) => e.event === 'progress');
    expect(progress.at(-1)).toMatchObject({ total: 12, done: 12, running: 0, failed: 4, etaSeconds: 0 });
    expect(progress.at(-1)?.usage).toMatchObject({ agentTokens: expect.any(Number), judgeTokens: 0 });
    const failures = events.filter((e) => e.event === 'failure');
    expect(failures.map((f) => f.key).sort()).toEqual([
      'broken/edu-fractions-lesson/1',
      'broken/edu-fractions-lesson/2',
      'broken/legal-nda-review/1',
      'broken/legal-nda-review/2',
    ]);
    for (const f of failures)
      expect(f).toMatchObject({ status: 'agent-failed', ui: expect.stringContaining('assay-trial%3A') });
    expect(new Set(events.map((e) => e.event))).toEqual(new Set(['start', 'progress', 'failure', 'summary']));
  }, 600_000);
});
