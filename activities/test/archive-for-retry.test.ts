// What `assay run --retry` moves under attempts/ before a job runs again: real files in a
// temporary results folder, read back through the results store.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openResultsStore } from '@assay/results';
import { archiveForRetry } from '../src/archive-for-retry.js';

function results(files: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-retry-'));
  for (const [key, value] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, key)), { recursive: true });
    writeFileSync(path.join(dir, key), typeof value === 'string' ? value : JSON.stringify(value));
  }
  return dir;
}

describe('archiveForRetry', () => {
  it('moves infra failures, cancellations and (on request) agent failures; leaves finished units alone', async () => {
    const dir = results({
      'trials/s/done/1/record.json': { status: 'completed' },
      'trials/s/done/1/transcript.log': 'ok',
      'trials/s/infra/1/infra-failure.json': { error: 'docker down' },
      'trials/s/cancelled/1/cancelled.json': { status: 'cancelled' },
      'trials/s/failed/1/record.json': { status: 'agent-failed' },
      'trials/s/failed/1/agent-result.json': { exitCode: 3 },
      'trials/s/failed/1/attempts/1/record.json': { status: 'agent-failed' },
      'projects/s/p/1/infra-failure.json': { error: 'lost' },
      'projects/s/p/1/subtasks/t01/checkpoint.json': { files: [] },
    });
    const store = openResultsStore(dir);

    expect(await archiveForRetry({ resultsDir: dir, retry: ['infra-failed'] })).toEqual([
      'trials/s/cancelled/1',
      'trials/s/infra/1',
      'projects/s/p/1',
    ]);
    expect(await store.list('trials/s/infra/1')).toEqual(['trials/s/infra/1/attempts/1/infra-failure.json']);
    expect(await store.list('trials/s/cancelled/1')).toEqual(['trials/s/cancelled/1/attempts/1/cancelled.json']);
    // A project resumes from its checkpoints: only its failure note moves.
    expect(await store.list('projects/s/p/1')).toEqual([
      'projects/s/p/1/attempts/1/infra-failure.json',
      'projects/s/p/1/subtasks/t01/checkpoint.json',
    ]);
    expect(await store.has('trials/s/failed/1/record.json')).toBe(true);

    expect(await archiveForRetry({ resultsDir: dir, retry: ['infra-failed', 'agent-failed'] })).toEqual([
      'trials/s/failed/1',
    ]);
    // The second archived attempt of this trial, beside the first.
    expect(await store.list('trials/s/failed/1')).toEqual([
      'trials/s/failed/1/attempts/1/record.json',
      'trials/s/failed/1/attempts/2/agent-result.json',
      'trials/s/failed/1/attempts/2/record.json',
    ]);
    expect(await store.list('trials/s/done/1')).toEqual([
      'trials/s/done/1/record.json',
      'trials/s/done/1/transcript.log',
    ]);
    expect(await archiveForRetry({ resultsDir: dir, retry: ['infra-failed', 'agent-failed'] })).toEqual([]);
  });

  it('finishes an archive a crash interrupted into the same attempt, the deciding record moved last', async () => {
    // The crash came after transcript.log was copied and deleted, before record.json moved.
    const dir = results({
      'trials/s/failed/1/record.json': { status: 'agent-failed' },
      'trials/s/failed/1/agent-result.json': { exitCode: 3 },
      'trials/s/failed/1/attempts/1/record.json': { status: 'agent-failed' },
      'trials/s/failed/1/attempts/2/transcript.log': 'log',
    });
    const store = openResultsStore(dir);
    expect(await archiveForRetry({ resultsDir: dir, retry: ['agent-failed'] })).toEqual(['trials/s/failed/1']);
    expect(await store.list('trials/s/failed/1')).toEqual([
      'trials/s/failed/1/attempts/1/record.json',
      'trials/s/failed/1/attempts/2/agent-result.json',
      'trials/s/failed/1/attempts/2/record.json',
      'trials/s/failed/1/attempts/2/transcript.log',
    ]);
  });

  it("moves a Harbor multi-step trial's steps/ with it, so the retry runs its steps again", async () => {
    const dir = results({
      'trials/s/steps/1/record.json': { status: 'agent-failed' },
      'trials/s/steps/1/steps/one/agent-result.json': { exitCode: 0 },
      'trials/s/steps/1/steps/one/verifier/reward.txt': '1',
      'trials/s/steps/1/steps/two/agent-result.json': { exitCode: 2 },
      'trials/s/steps/1/attempts/1/record.json': { status: 'agent-failed' },
    });
    const store = openResultsStore(dir);
    expect(await archiveForRetry({ resultsDir: dir, retry: ['agent-failed'] })).toEqual(['trials/s/steps/1']);
    expect(await store.list('trials/s/steps/1')).toEqual([
      'trials/s/steps/1/attempts/1/record.json',
      'trials/s/steps/1/attempts/2/record.json',
      'trials/s/steps/1/attempts/2/steps/one/agent-result.json',
      'trials/s/steps/1/attempts/2/steps/one/verifier/reward.txt',
      'trials/s/steps/1/attempts/2/steps/two/agent-result.json',
    ]);
  });
});
