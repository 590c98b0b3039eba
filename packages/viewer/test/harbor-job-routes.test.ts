// `assay view` over a Harbor job folder (test/fixtures/harbor-job/job, written by Harbor 0.25.0's own models):
// the source is recognised from the folder's content, the overview lists its trials, and a trial answers with
// its rewards, the exception it raised, its phase timings, tokens and cost and its ATIF trajectory as the
// transcript; a damaged Harbor job is refused at start, naming the file and the field.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createViewerApp } from '../src/create-viewer-app.js';
import { resolveSources } from '../src/resolve-sources.js';

const JOB = path.resolve(import.meta.dirname, '../../../test/fixtures/harbor-job/job');
let tmp: string;
let app: ReturnType<typeof createViewerApp>;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'assay-viewer-harbor-'));
  const client = path.join(tmp, 'client');
  mkdirSync(client);
  writeFileSync(path.join(client, 'index.html'), '<div id="app"></div>');
  app = createViewerApp(await resolveSources([JOB]), client, { port: () => 4324, reviewer: null });
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function getJson<T>(p: string): Promise<T> {
  const res = await app.request(p);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

describe('assay view over a Harbor job folder', () => {
  it('lists its trials as one source named after the job', async () => {
    const sources = await resolveSources([JOB]);
    expect(sources.map((s) => [s.id, s.label, s.kind])).toEqual([['0', '2026-12-01__10-00-00', 'harbor-job']]);
    const body = JSON.stringify(await getJson<unknown>('/api/overview'));
    for (const system of [
      'claude-code__claude-sonnet-4-5',
      'claude-code__gpt-5',
      'codex__claude-sonnet-4-5',
      'codex__gpt-5',
    ])
      expect(body).toContain(system);
    expect(body).toContain('agent-failed');
  });

  it('shows a trial that raised: exception, timings, tokens and cost, and the ATIF steps', async () => {
    type Detail = {
      record: { status: string; score: { value: number | null }; usage: { costUsd: number } | null };
      harborTrial: {
        trialName: string;
        exception: { exception_type: string } | null;
        timings: Record<string, unknown>;
      };
      transcript: { present: boolean; title?: string; lines: { json: Record<string, unknown> | null }[] };
    };
    const d = await getJson<Detail>('/api/trial/0/codex__gpt-5/fix-bug/3');
    expect(d.record).toMatchObject({ status: 'agent-failed', score: { value: null }, usage: { costUsd: 0.005274 } });
    expect(d.harborTrial.trialName).toMatch(/^fix-bug__[0-9a-f]{7}$/);
    expect(d.harborTrial.exception?.exception_type).toBe('NonZeroAgentExitCodeError');
    expect(d.harborTrial.timings).toMatchObject({
      verifier: null,
      agent_execution: { started_at: '2026-12-01T11:04:20Z' },
    });
    expect(d.transcript).toMatchObject({ present: true, title: 'ATIF trajectory (agent/trajectory.json)' });
    expect(d.transcript.lines.map((l) => l.json)).toEqual([
      { step: 1, source: 'user', message: 'Solve the task fix-bug in /app.' },
      expect.objectContaining({
        step: 2,
        source: 'agent',
        model: 'gpt-5',
        tool_calls: 'bash {"command":"ls /app"}',
        observation: 'README.md\nmain.py\n',
      }),
      expect.objectContaining({ step: 3, message: 'The command failed.' }),
    ]);
  });

  it('shows the rewards of a multi-key reward.json and how the score was made of them', async () => {
    const d = await getJson<{ harborRewards: unknown; record: { score: { value: number } } }>(
      '/api/trial/0/claude-code__claude-sonnet-4-5/parse-csv/1',
    );
    expect(d.record.score.value).toBe(75);
    expect(JSON.stringify(d.harborRewards)).toContain('correctness');
  });

  it("shows a multi-step trial's steps, each with its trajectory, and the trial's trial.log", async () => {
    type Detail = {
      record: { score: { value: number | null }; steps: { name: string; score: number }[]; multiStep: unknown };
      harborTrial: {
        steps: { name: string; transcript: { present: boolean; title: string; lines: unknown[] } }[];
        logs: { name: string; present: boolean; text: string; note: string | null }[];
      };
      transcript: { present: boolean; note?: string };
    };
    const d = await getJson<Detail>('/api/trial/0/claude-code__gpt-5/fix-bug/1');
    expect(d.record.multiStep).toEqual({ strategy: 'final', declared: ['reproduce', 'fix'] });
    expect(d.record.steps.map((s) => [s.name, s.score])).toEqual([
      ['reproduce', 100],
      ['fix', 0],
    ]);
    expect(d.record.score.value).toBe(0);
    expect(
      d.harborTrial.steps.map((s) => [s.name, s.transcript.present, s.transcript.title, s.transcript.lines.length]),
    ).toEqual([
      ['reproduce', true, 'ATIF trajectory (steps/reproduce/agent/trajectory.json)', 3],
      ['fix', true, 'ATIF trajectory (steps/fix/agent/trajectory.json)', 3],
    ]);
    expect(d.transcript).toMatchObject({ present: false, note: expect.stringContaining('multi-step') });
    const [log, exception] = d.harborTrial.logs;
    expect(log).toMatchObject({ name: 'trial.log', present: true, note: null });
    expect(log?.text).toContain('INFO Starting trial fix-bug__');
    expect(exception).toMatchObject({ name: 'exception.txt', present: false });
    // No local path reaches the page.
    expect(JSON.stringify(d)).not.toContain(JOB);
  });

  it('refuses a damaged Harbor job at start, naming the file and the field', async () => {
    const copy = path.join(tmp, 'damaged');
    cpSync(JOB, copy, { recursive: true });
    const trial = readdirSync(copy).find((n) => n.startsWith('count-words__'));
    const file = path.join(copy, trial ?? '', 'result.json');
    writeFileSync(file, JSON.stringify({ id: 'x', trial_name: 'count-words__x' }));
    await expect(resolveSources([copy])).rejects.toThrow(`${file} is not what Harbor 0.25.0 writes there: task_name:`);
  });
});
